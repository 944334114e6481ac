// SPDX-License-Identifier: MIT
// The move context: the scratch of a move (its candidates and planes) belongs to the space for single calls, not to
// each controller. A controller costs a few kilobytes whatever its max_candidates; each still splits its moves at its
// own max_candidates; the last controller of a space gives everything back, even when destroyed from a callback.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../controller/internal.h"
#include "../controller/static_index.h"
#include "alloc_hooks.h"
#include "controller_scene.h"

// A patch of small static circles, 0.5 apart: any character-sized query meets dozens of them.
static void add_circle_patch( scene* s, float x0, float y0, int columns, int rows )
{
	for ( int j = 0; j < rows; ++j )
	{
		for ( int i = 0; i < columns; ++i )
		{
			scene_add_circle( s, kcc_v2( x0 + 0.5f * (float)i, y0 + 0.5f * (float)j ), 0.1f );
		}
	}
}

static kcc_controller_def floating_def( vec2s position, int max_candidates )
{
	kcc_controller_def def = test_character_def( TEST_CIRCLE, position );
	def.mode = KCC_MODE_FLOATING;
	def.max_candidates = max_candidates;
	return def;
}

// A row of tiles, and the counting hooks installed (after the scene: only kcc2d's allocations count).
static scene* floor_with_hooks( void )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -20, -1, 40 );
	scene_commit( s, 1 );
	hooks_reset();
	kcc_set_allocator( hook_alloc, hook_free, NULL );
	return s;
}

// Every controller destroyed: kcc2d holds nothing more; the hooks go, then the scene.
static void end_holding_nothing( scene* s )
{
	assert_int_equal( s_hook_live, 0 );
	kcc_set_allocator( NULL, NULL, NULL );
	scene_destroy( s );
}

static void test_a_controller_holds_no_candidate_buffer( void** state )
{
	(void)state;
	scene* s = floor_with_hooks();
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( -5.0f, 1.0f ) );
	def.max_candidates = 4096;
	kcc_controller* first = kcc_controller_create( s->space, &def );
	assert_non_null( first );
	int64_t space_bytes = s_hook_live;
	kcc_controller* c[8];
	for ( int i = 0; i < 8; ++i )
	{
		def.position = kcc_v2( -4.0f + (float)i, 1.0f );
		c[i] = kcc_controller_create( s->space, &def );
		assert_non_null( c[i] );
	}
	int64_t per_controller = ( s_hook_live - space_bytes ) / 8;
	print_message( "the first controller of the space: %lld bytes; each other one: %lld bytes\n",
				   (long long)space_bytes, (long long)per_controller );
	// The candidates of one move (4096 * sizeof( kcc_candidate ) bytes) are the space's, allocated once.
	assert_true( space_bytes >= (int64_t)def.max_candidates * (int64_t)sizeof( kcc_candidate ) );
	assert_true( per_controller < (int64_t)sizeof( kcc_candidate ) * 16 );
	for ( int i = 0; i < 8; ++i )
	{
		assert_int_equal( kcc_controller_move( c[i], kcc_v2( 0.3f, -0.5f ), NULL ), KCC_OK );
		kcc_controller_destroy( c[i] );
	}
	kcc_controller_destroy( first );
	end_holding_nothing( s );
}

// The same moves of a character with max_candidates 16, alone in its space or with one of 1024 created before it
// (which grows the space's context): the same splits, positions and flags. The large one holds all it meets.
static void test_each_controller_keeps_its_own_max_candidates( void** state )
{
	(void)state;
	scene* alone = scene_create( 1.0f );
	scene* shared = scene_create( 1.0f );
	scene* both[2] = { alone, shared };
	for ( int k = 0; k < 2; ++k )
	{
		add_circle_patch( both[k], -4.0f, -4.0f, 17, 17 );
		add_circle_patch( both[k], 96.0f, -4.0f, 17, 17 );
		scene_commit( both[k], 3 );
	}
	kcc_controller_def def_large = floating_def( kcc_v2( 98.0f, 0.05f ), 1024 );
	kcc_controller* large = kcc_controller_create( shared->space, &def_large );
	kcc_controller_def def_small = floating_def( kcc_v2( -2.0f, 0.05f ), 16 );
	kcc_controller* small[2] = { kcc_controller_create( alone->space, &def_small ),
								 kcc_controller_create( shared->space, &def_small ) };
	assert_non_null( large );
	assert_non_null( small[0] );
	assert_non_null( small[1] );
	assert_true( small[1]->move->capacity >= 1024 );

	int found_past_16 = 0;
	for ( int step = 0; step < 40; ++step )
	{
		vec2s d = kcc_v2( 0.15f * ( step % 7 == 3 ? -1.0f : 1.0f ), 0.02f * (float)( step % 5 ) - 0.04f );
		kcc_move_result r[2];
		for ( int k = 0; k < 2; ++k )
		{
			assert_int_equal( kcc_controller_move( small[k], d, r + k ), KCC_OK );
			found_past_16 += small[k]->move->candidate_found > 16 ? 1 : 0;
			assert_true( small[k]->move->candidate_count <= 16 );
		}
		assert_memory_equal( &r[0].position, &r[1].position, sizeof( vec2s ) );
		assert_int_equal( r[0].flags, r[1].flags );
		assert_int_equal( r[0].collision_count, r[1].collision_count );
		assert_int_equal( r[0].path_count, r[1].path_count );

		kcc_move_result rl;
		assert_int_equal( kcc_controller_move( large, d, &rl ), KCC_OK );
		assert_true( large->move->candidate_count == large->move->candidate_found );
		assert_true( ( rl.flags & KCC_CANDIDATES_TRUNCATED ) == 0 );
	}
	print_message( "%d moves of the small characters met more than 16 shapes\n", found_past_16 );
	assert_true( found_past_16 > 10 ); // the small ones did split their moves
	kcc_controller_destroy( small[0] );
	kcc_controller_destroy( small[1] );
	kcc_controller_destroy( large );
	scene_destroy( alone );
	scene_destroy( shared );
}

static void destroy_inside_query( cpShape* shape, void* data )
{
	(void)shape;
	kcc_controller** c = data;
	if ( *c != NULL )
	{
		kcc_controller_destroy( *c );
		*c = NULL;
	}
}

// The last controller of a space destroyed from a Chipmunk callback (its body goes when the space unlocks) gives back
// what the space's controllers shared: the static index and the move context.
static void test_destroy_from_a_callback_frees_the_space_state( void** state )
{
	(void)state;
	scene* s = floor_with_hooks();
	kcc_controller_def def = test_character_def( TEST_BOX, kcc_v2( 0.0f, 1.0f ) );
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	assert_true( s_hook_live > 0 );
	cpSpaceBBQuery( s->space, cpBBNew( -1.0, 0.0, 1.0, 2.0 ), CP_SHAPE_FILTER_ALL, destroy_inside_query, &c );
	assert_null( c );
	end_holding_nothing( s );
}

// Without memory for the static index (its arrays refused), a controller is still made and its moves read the level
// from Chipmunk, with the same results; the next controller created with memory back builds the index.
static void test_a_space_without_its_static_index( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -2000, -1, 4000 );
	scene_add_box( s, 3.0f, 0.0f, 4.0f, 3.0f );
	scene_commit( s, 1 );
	hooks_reset();
	kcc_set_allocator( hook_alloc, hook_free, NULL );
	s_hook_largest = 128 * 1024; // the index's arrays for 4,000 tiles are larger; the candidates' buffer fits
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( 0.0f, 0.61f ) );
	kcc_controller* first = kcc_controller_create( s->space, &def );
	assert_non_null( first );
	assert_false( kcc_static_index_ready( first->static_index ) );
	kcc_move_result from_chipmunk, from_index;
	assert_int_equal( kcc_controller_move( first, kcc_v2( 5.0f, -0.1f ), &from_chipmunk ), KCC_OK );
	assert_true( ( from_chipmunk.flags & ( KCC_ON_FLOOR | KCC_ON_WALL ) ) == ( KCC_ON_FLOOR | KCC_ON_WALL ) );
	assert_true( from_chipmunk.position.x > 1.0f );

	s_hook_largest = SIZE_MAX;
	def.position = kcc_v2( -5.0f, 0.61f );
	kcc_controller* second = kcc_controller_create( s->space, &def );
	assert_non_null( second );
	assert_true( kcc_static_index_ready( second->static_index ) );
	assert_true( first->static_index == second->static_index );
	assert_int_equal( kcc_controller_set_position( first, kcc_v2( 0.0f, 0.61f ) ), KCC_OK );
	assert_int_equal( kcc_controller_move( first, kcc_v2( 5.0f, -0.1f ), &from_index ), KCC_OK );
	assert_memory_equal( &from_chipmunk.position, &from_index.position, sizeof( vec2s ) );
	assert_int_equal( from_chipmunk.flags, from_index.flags );
	assert_int_equal( from_chipmunk.collision_count, from_index.collision_count );
	kcc_controller_destroy( first );
	kcc_controller_destroy( second );
	end_holding_nothing( s );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_controller_holds_no_candidate_buffer ),
		cmocka_unit_test( test_each_controller_keeps_its_own_max_candidates ),
		cmocka_unit_test( test_destroy_from_a_callback_frees_the_space_state ),
		cmocka_unit_test( test_a_space_without_its_static_index ),
	};
	return cmocka_run_group_tests_name( "controller_context", tests, NULL, NULL );
}
