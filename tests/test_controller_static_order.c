// SPDX-License-Identifier: MIT
// kcc_space_add_static_shapes: every shape added once, whatever the count; moves on Chipmunk's default tree give the
// same results as with the shapes added in rows; the controllers' static index sees them; bad input adds nothing.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "../controller/internal.h"
#include "assert_recorder.h"
#include "controller_scene.h"

static void count_shape( cpShape* shape, void* data )
{
	(void)shape;
	*(int*)data += 1;
}

static int shape_count( cpSpace* space )
{
	int n = 0;
	cpSpaceEachShape( space, count_shape, &n );
	return n;
}

// Tiles of a level in rows, as a map reader makes them: a floor, bumps to jump over, and stretches of ceiling.
static int make_tiles( cpBody* body, cpShape** out, int rows, int columns )
{
	int n = 0;
	for ( int j = 0; j < rows; ++j )
	{
		for ( int i = 0; i < columns; ++i )
		{
			if ( j == 0 || ( j == 1 && i % 7 == 0 ) || ( j == rows - 1 && i % 13 < 4 ) )
			{
				double x = (double)( i - columns / 2 ), y = (double)( j - 1 );
				out[n++] = cpBoxShapeNew2( body, cpBBNew( x, y, x + 1.0, y + 1.0 ), 0.0 );
			}
		}
	}
	return n;
}

static void free_shapes( cpSpace* space, cpShape** shapes, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		if ( space != NULL && cpSpaceContainsShape( space, shapes[i] ) )
		{
			cpSpaceRemoveShape( space, shapes[i] );
		}
		cpShapeFree( shapes[i] );
	}
}

static void test_every_shape_is_added_once( void** state )
{
	(void)state;
	static cpShape* shapes[1500];
	const int counts[] = { 0, 1, 2, 3, 7, 64, 65, 1000, 1500 };
	for ( size_t k = 0; k < sizeof( counts ) / sizeof( counts[0] ); ++k )
	{
		cpSpace* space = cpSpaceNew();
		cpBody* ground = cpSpaceGetStaticBody( space );
		for ( int i = 0; i < counts[k]; ++i )
		{
			shapes[i] = cpCircleShapeNew( ground, 0.25, cpv( (double)i, 0.0 ) );
		}
		assert_int_equal( kcc_space_add_static_shapes( space, shapes, counts[k] ), KCC_OK );
		assert_int_equal( shape_count( space ), counts[k] );
		for ( int i = 0; i < counts[k]; ++i )
		{
			assert_true( cpSpaceContainsShape( space, shapes[i] ) );
		}
		free_shapes( space, shapes, counts[k] );
		cpSpaceFree( space );
	}
}

// Twin spaces on Chipmunk's default tree, the level added in rows or through kcc_space_add_static_shapes: a character
// walking and jumping over it takes the same path, bit for bit (moves order what they find by geometry alone).
static void test_moves_match_shapes_added_in_rows( void** state )
{
	(void)state;
	enum { ROWS = 6, COLUMNS = 400 };
	static cpShape* tiles[2][ROWS * COLUMNS];
	cpSpace* spaces[2];
	kcc_controller* c[2];
	int n = 0;
	for ( int k = 0; k < 2; ++k )
	{
		spaces[k] = cpSpaceNew();
		n = make_tiles( cpSpaceGetStaticBody( spaces[k] ), tiles[k], ROWS, COLUMNS );
		if ( k == 0 )
		{
			for ( int i = 0; i < n; ++i )
			{
				cpSpaceAddShape( spaces[k], tiles[k][i] );
			}
		}
		else
		{
			assert_int_equal( kcc_space_add_static_shapes( spaces[k], tiles[k], n ), KCC_OK );
		}
		kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( -50.0f, 0.61f ) );
		c[k] = kcc_controller_create( spaces[k], &def );
		assert_non_null( c[k] );
	}
	vec2s v[2] = { { { 0.0f, 0.0f } }, { { 0.0f, 0.0f } } };
	int floors = 0;
	for ( int step = 0; step < 600; ++step )
	{
		kcc_move_result r[2];
		for ( int k = 0; k < 2; ++k )
		{
			v[k].x = 6.0f;
			v[k].y -= 30.0f / 60.0f;
			if ( ( c[k]->flags & KCC_ON_FLOOR ) && step % 20 == 0 )
			{
				v[k].y = 9.0f;
			}
			assert_int_equal( kcc_controller_move_and_slide( c[k], v[k], 1.0f / 60.0f, v + k, r + k ), KCC_OK );
		}
		assert_memory_equal( &r[0].position, &r[1].position, sizeof( vec2s ) );
		assert_int_equal( r[0].flags, r[1].flags );
		floors += ( r[0].flags & KCC_ON_FLOOR ) ? 1 : 0;
	}
	print_message( "%d tiles, on a floor in %d of 600 steps, ended at x = %.3f\n", n, floors,
				   (double)kcc_controller_get_position( c[0] ).x );
	assert_true( floors > 30 );
	assert_true( kcc_controller_get_position( c[0] ).x > -30.0f ); // it did travel over the bumps
	for ( int k = 0; k < 2; ++k )
	{
		kcc_controller_destroy( c[k] );
		free_shapes( spaces[k], tiles[k], n );
		cpSpaceFree( spaces[k] );
	}
}

// Added after the controller exists: the static index is rebuilt, so the next move stops at the new wall.
static void test_the_static_index_sees_the_shapes( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -20, -1, 40 );
	scene_commit( s, 1 );
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( 0.0f, 0.61f ) );
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	cpShape* wall[2] = { cpBoxShapeNew2( cpSpaceGetStaticBody( s->space ), cpBBNew( 2.0, 0.0, 3.0, 1.0 ), 0.0 ),
						 cpBoxShapeNew2( cpSpaceGetStaticBody( s->space ), cpBBNew( 2.0, 1.0, 3.0, 2.0 ), 0.0 ) };
	assert_int_equal( kcc_space_add_static_shapes( s->space, wall, 2 ), KCC_OK );
	kcc_move_result r;
	assert_int_equal( kcc_controller_move( c, kcc_v2( 5.0f, 0.0f ), &r ), KCC_OK );
	assert_true( r.position.x < 2.0f - 0.3f + 1e-3f );
	assert_true( r.position.x > 2.0f - 0.3f - 2.0f * def.skin - 1e-3f );
	assert_true( r.collision_count >= 1 && ( r.collision_count > 0 && ( r.collisions[0].shape == wall[0] ||
																		r.collisions[0].shape == wall[1] ) ) );
	kcc_controller_destroy( c );
	free_shapes( s->space, wall, 2 );
	scene_destroy( s );
}

typedef struct locked_call
{
	cpShape** shapes;
	kcc_status status;
} locked_call;

static void add_inside_query( cpShape* shape, void* data )
{
	locked_call* call = data;
	call->status = kcc_space_add_static_shapes( cpShapeGetSpace( shape ), call->shapes, 1 );
}

static void test_bad_input_adds_nothing( void** state )
{
	(void)state;
	reset_asserts();
	cpSpace* space = cpSpaceNew();
	cpSpace* other = cpSpaceNew();
	cpBody* ground = cpSpaceGetStaticBody( space );
	cpShape* floor = cpSpaceAddShape( space, cpBoxShapeNew2( ground, cpBBNew( -5, -1, 5, 0 ), 0.0 ) );
	cpShape* good[3] = { cpCircleShapeNew( ground, 0.5, cpv( 0, 3 ) ), cpCircleShapeNew( ground, 0.5, cpv( 2, 3 ) ),
						 cpCircleShapeNew( ground, 0.5, cpv( 4, 3 ) ) };
	int before = shape_count( space );

	assert_int_equal( kcc_space_add_static_shapes( NULL, good, 3 ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_space_add_static_shapes", "NULL" );
	assert_int_equal( kcc_space_add_static_shapes( space, NULL, 3 ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_space_add_static_shapes", "NULL" );
	assert_int_equal( kcc_space_add_static_shapes( space, good, -1 ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_space_add_static_shapes", "negative" );

	cpShape* with_null[3] = { good[0], NULL, good[2] };
	assert_int_equal( kcc_space_add_static_shapes( space, with_null, 3 ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_space_add_static_shapes", "NULL" );

	cpBody* dynamic = cpSpaceAddBody( space, cpBodyNew( 1.0, 1.0 ) );
	cpShape* moving = cpCircleShapeNew( dynamic, 0.5, cpvzero );
	cpShape* not_static[3] = { good[0], good[1], moving };
	assert_int_equal( kcc_space_add_static_shapes( space, not_static, 3 ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_space_add_static_shapes", "static" );

	cpBody* loose = cpBodyNewStatic(); // never added to the space
	cpShape* on_loose = cpCircleShapeNew( loose, 0.5, cpvzero );
	cpShape* body_missing[2] = { on_loose, good[0] };
	assert_int_equal( kcc_space_add_static_shapes( space, body_missing, 2 ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_space_add_static_shapes", "not in the space" );

	cpShape* elsewhere = cpSpaceAddShape( other, cpCircleShapeNew( cpSpaceGetStaticBody( other ), 0.5, cpvzero ) );
	cpShape* added_already[3] = { good[0], elsewhere, good[1] };
	assert_int_equal( kcc_space_add_static_shapes( space, added_already, 3 ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_space_add_static_shapes", "in a space already" );
	cpShape* here_already[2] = { good[2], floor };
	assert_int_equal( kcc_space_add_static_shapes( space, here_already, 2 ), KCC_ERROR_INVALID_ARGUMENT );

	// Given twice: found only while adding, and what was added goes again.
	for ( int twice_at = 0; twice_at < 3; ++twice_at )
	{
		cpShape* twice[4] = { good[0], good[1], good[2], good[twice_at] };
		assert_int_equal( kcc_space_add_static_shapes( space, twice, 4 ), KCC_ERROR_INVALID_ARGUMENT );
		expect_message( "kcc_space_add_static_shapes", "twice" );
		assert_int_equal( shape_count( space ), before );
	}

	locked_call call = { good, KCC_OK };
	cpSpaceBBQuery( space, cpBBNew( -1, -1, 1, 0 ), CP_SHAPE_FILTER_ALL, add_inside_query, &call );
	assert_int_equal( call.status, KCC_ERROR_SPACE_LOCKED );
	expect_message( "kcc_space_add_static_shapes", "locked" );

	assert_int_equal( shape_count( space ), before );
	for ( int i = 0; i < 3; ++i )
	{
		assert_false( cpSpaceContainsShape( space, good[i] ) );
	}
	// And the same shapes are then accepted.
	assert_int_equal( kcc_space_add_static_shapes( space, good, 3 ), KCC_OK );
	assert_int_equal( shape_count( space ), before + 3 );

	free_shapes( space, good, 3 );
	free_shapes( NULL, &moving, 1 );
	free_shapes( NULL, &on_loose, 1 );
	cpBodyFree( loose );
	free_shapes( other, &elsewhere, 1 );
	free_shapes( space, &floor, 1 );
	cpSpaceRemoveBody( space, dynamic );
	cpBodyFree( dynamic );
	cpSpaceFree( other );
	cpSpaceFree( space );
}

int main( void )
{
	kcc_set_assert_fcn( record_assert );
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_every_shape_is_added_once ),
		cmocka_unit_test( test_moves_match_shapes_added_in_rows ),
		cmocka_unit_test( test_the_static_index_sees_the_shapes ),
		cmocka_unit_test( test_bad_input_adds_nothing ),
	};
	return cmocka_run_group_tests_name( "controller_static_order", tests, NULL, NULL );
}
