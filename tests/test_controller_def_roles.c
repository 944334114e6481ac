// SPDX-License-Identifier: MIT
// The def's role masks (issue 15, item 8): one_way_categories or pushable_categories equal to every category, or
// sharing bits with each other, were accepted without a word, making every categorised shape one-way or a shape both
// one-way and pushable. kcc_controller_def_problem names the field, and create refuses the def.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "assert_recorder.h"
#include "kcc/controller.h"

static void expect_refused( const kcc_controller_def* def, const char* problem )
{
	const char* message = kcc_controller_def_problem( def );
	assert_non_null( message );
	if ( strstr( message, problem ) == NULL )
	{
		fprintf( stderr, "\"%s\" should say \"%s\"\n", message, problem );
	}
	assert_non_null( strstr( message, problem ) );
	cpSpace* space = cpSpaceNew();
	reset_asserts();
	assert_null( kcc_controller_create( space, def ) );
	expect_message( "one_way_categories, pushable_categories", problem );
	cpSpaceFree( space );
}

static void test_role_masks_of_every_category_are_refused( void** state )
{
	(void)state;
	kcc_controller_def def = kcc_default_controller_def();
	def.one_way_categories = CP_ALL_CATEGORIES;
	expect_refused( &def, "must not be every category" );
	def = kcc_default_controller_def();
	def.pushable_categories = CP_ALL_CATEGORIES;
	expect_refused( &def, "must not be every category" );
}

static void test_role_masks_sharing_bits_are_refused( void** state )
{
	(void)state;
	kcc_controller_def def = kcc_default_controller_def();
	def.one_way_categories = 0x2u;
	def.pushable_categories = 0x2u;
	expect_refused( &def, "must not share bits" );
	def.pushable_categories = 0x6u;
	expect_refused( &def, "must not share bits" );
}

static void test_separate_role_masks_are_accepted( void** state )
{
	(void)state;
	kcc_controller_def def = kcc_default_controller_def();
	def.one_way_categories = 0x2u;
	def.pushable_categories = 0x4u;
	assert_null( kcc_controller_def_problem( &def ) );
	def.one_way_categories = CP_ALL_CATEGORIES & ~(cpBitmask)0x4u; // every bit but the crates': still explicit roles
	assert_null( kcc_controller_def_problem( &def ) );
	cpSpace* space = cpSpaceNew();
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	kcc_controller_destroy( c );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_role_masks_of_every_category_are_refused ),
		cmocka_unit_test( test_role_masks_sharing_bits_are_refused ),
		cmocka_unit_test( test_separate_role_masks_are_accepted ),
	};
	return cmocka_run_group_tests_name( "controller def roles", tests, install_recorder, NULL );
}
