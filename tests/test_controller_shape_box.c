// SPDX-License-Identifier: MIT
// The character's shape box after a batch (docs/controller.md, "Many characters"): whether or not the batch leaves
// Chipmunk's index to kcc_space_sync, each character's body and its shape's cached bounding box (cpShapeGetBB) are
// where it moved when the batch returns, as after sequential calls, for characters that see each other and for
// characters that ignore each other (no move of the batch reads their shapes).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "controller_scene.h"

#define LEVEL_CATEGORY 1u
#define CHARACTER_CATEGORY 2u
#define CHARACTERS 6
#define FRAMES 40

typedef struct twin
{
	scene* s;
	kcc_controller* c[CHARACTERS];
} twin;

// A floor with a wall at each end; characters in a row on it, walking toward each other in pairs.
static void twin_build( twin* t, bool see_each_other, bool deferred )
{
	t->s = scene_create( 1.0f );
	scene_add_tile_row( t->s, -12, -1, 24 );
	scene_add_tile_column( t->s, -13, 0, 4 );
	scene_add_tile_column( t->s, 12, 0, 4 );
	scene_commit( t->s, 0 );
	for ( int i = 0; i < CHARACTERS; ++i )
	{
		vec2s start = kcc_v2( -9.0f + 1.5f * (float)i, 1.0f );
		kcc_controller_def def = test_character_def( i % TEST_CHARACTER_COUNT, start );
		cpBitmask mask = LEVEL_CATEGORY | ( see_each_other ? CHARACTER_CATEGORY : 0u );
		def.filter = cpShapeFilterNew( CP_NO_GROUP, CHARACTER_CATEGORY, mask );
		t->c[i] = kcc_controller_create( t->s->space, &def );
		assert_non_null( t->c[i] );
	}
	assert_int_equal( kcc_space_set_deferred_sync( t->s->space, deferred ), KCC_OK );
}

static void twin_destroy( twin* t )
{
	for ( int i = 0; i < CHARACTERS; ++i )
	{
		kcc_controller_destroy( t->c[i] );
	}
	scene_destroy( t->s );
}

static vec2s frame_velocity( int i, int frame )
{
	float side = ( i % 2 == 0 ) ? 1.0f : -1.0f;
	return kcc_v2( side * ( 2.0f + 0.25f * (float)i ) * ( frame < FRAMES / 2 ? 1.0f : -1.0f ), -9.8f );
}

// The character's body and cached box where sequential calls left its twin's, and the box the one its body gives
// now (cpShapeCacheBB changes nothing then).
static void assert_same_place( kcc_controller* a, kcc_controller* b )
{
	cpVect pa = cpBodyGetPosition( kcc_controller_get_body( a ) );
	cpVect pb = cpBodyGetPosition( kcc_controller_get_body( b ) );
	assert_memory_equal( &pa, &pb, sizeof( pa ) );
	cpShape* shape = kcc_controller_get_shape( a );
	cpBB cached = cpShapeGetBB( shape );
	cpBB twin_cached = cpShapeGetBB( kcc_controller_get_shape( b ) );
	assert_memory_equal( &cached, &twin_cached, sizeof( cached ) );
	cpBB fresh = cpShapeCacheBB( shape );
	assert_memory_equal( &cached, &fresh, sizeof( cached ) );
}

static void run_case( bool see_each_other, bool deferred, const kcc_task_system* tasks )
{
	twin batch, single;
	twin_build( &batch, see_each_other, deferred );
	twin_build( &single, see_each_other, deferred );
	const float dt = 1.0f / 60.0f;
	for ( int frame = 0; frame < FRAMES; ++frame )
	{
		vec2s velocities[CHARACTERS];
		for ( int i = 0; i < CHARACTERS; ++i )
		{
			velocities[i] = frame_velocity( i, frame );
			assert_int_equal( kcc_controller_move_and_slide( single.c[i], velocities[i], dt, NULL, NULL ), KCC_OK );
		}
		assert_int_equal( kcc_move_and_slide_batch( batch.c, CHARACTERS, velocities, dt, NULL, NULL, tasks ), KCC_OK );
		for ( int i = 0; i < CHARACTERS; ++i )
		{
			assert_same_place( batch.c[i], single.c[i] );
		}
	}
	twin_destroy( &batch );
	twin_destroy( &single );
}

static void test_box_right_after_batch( void** state )
{
	(void)state;
	for ( int see = 0; see < 2; ++see )
	{
		for ( int deferred = 0; deferred < 2; ++deferred )
		{
			run_case( see != 0, deferred != 0, NULL );
		}
	}
}

// The same on two workers (the characters that ignore each other all move in one wave).
static void test_box_right_after_batch_on_workers( void** state )
{
	(void)state;
	kcc_thread_pool* pool = kcc_thread_pool_create( 2 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	for ( int see = 0; see < 2; ++see )
	{
		for ( int deferred = 0; deferred < 2; ++deferred )
		{
			run_case( see != 0, deferred != 0, &tasks );
		}
	}
	kcc_thread_pool_destroy( pool );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_box_right_after_batch ),
		cmocka_unit_test( test_box_right_after_batch_on_workers ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
