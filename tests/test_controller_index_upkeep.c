// SPDX-License-Identifier: MIT
// Chipmunk's spatial hash keeps a dead entry in every cell a moved shape covered until a query walks that cell. The
// moves clear the character's own (its next query walks them): a character running, or teleported on and on, for
// thousands of steps leaves Chipmunk's memory as it was once warmed up.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "../controller/internal.h"
#include "controller_scene.h"

// Bytes the whole process holds on the heap, Chipmunk's included (a shared library: its allocations are not counted
// by alloc_count.h's wrappers).
#if defined( __has_feature )
#if __has_feature( address_sanitizer )
#define TEST_ASAN 1
#endif
#endif
#if defined( __SANITIZE_ADDRESS__ ) || defined( TEST_ASAN )
size_t __sanitizer_get_current_allocated_bytes( void ); // AddressSanitizer's runtime (its header is not always there)
static size_t heap_bytes( void )
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
#include <malloc.h>
static size_t heap_bytes( void )
{
	return mallinfo2().uordblks;
}
#endif

// A long floor in a spatial hash of unit cells; a capsule running right with gravity and single calls, one unit a
// step (farther than its own width: its next query does not reach the cells it left), never back over them;
// teleport: walking, and put 1.5 units further on before each step (its next query is then too far from the cells
// it left to cover them: they are cleared apart).
static int64_t run( bool teleport, int steps, int warm_up )
{
	cpSpace* space = cpSpaceNew();
	cpSpaceUseSpatialHash( space, 1.0, 4096 );
	cpShape* floor = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( -200.0, -1.0, 8000.0, 0.0 ), 0.0 );
	assert_int_equal( kcc_space_add_static_shapes( space, &floor, 1 ), KCC_OK );
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( -195.0f, 0.61f ) );
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	vec2s v = kcc_v2( 0.0f, 0.0f );
	size_t before = 0;
	for ( int step = 0; step < steps; ++step )
	{
		if ( step == warm_up )
		{
			before = heap_bytes();
		}
		if ( teleport )
		{
			vec2s p = kcc_controller_get_position( c );
			assert_int_equal( kcc_controller_set_position( c, kcc_v2( p.x + 1.5f, 0.61f ) ), KCC_OK );
		}
		v.x = teleport ? 6.0f : 60.0f;
		v.y -= 0.5f;
		assert_int_equal( kcc_controller_move_and_slide( c, v, 1.0f / 60.0f, &v, NULL ), KCC_OK );
	}
	int64_t grown = (int64_t)heap_bytes() - (int64_t)before;
	vec2s p = kcc_controller_get_position( c );
	print_message( "%s: %d steps, ended at (%.2f, %.2f), heap grown by %lld bytes after step %d\n",
				   teleport ? "teleported" : "running", steps, (double)p.x, (double)p.y, (long long)grown,
				   warm_up );
	assert_true( p.x > 1500.0f );            // it went far: thousands of cells left behind
	assert_true( p.y > 0.5f && p.y < 0.7f ); // on the floor all along
	kcc_controller_destroy( c );
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	cpSpaceFree( space );
	return grown;
}

static void test_running_leaves_the_hash_clean( void** state )
{
	(void)state;
	assert_true( run( false, 4000, 800 ) < 8192 );
}

static void test_teleports_leave_the_hash_clean( void** state )
{
	(void)state;
	assert_true( run( true, 4000, 800 ) < 8192 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_running_leaves_the_hash_clean ),
		cmocka_unit_test( test_teleports_leave_the_hash_clean ),
	};
	return cmocka_run_group_tests_name( "controller_index_upkeep", tests, NULL, NULL );
}
