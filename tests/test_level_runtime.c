// SPDX-License-Identifier: MIT
// The level at run time (tests/levels/features.tmj): platforms follow their paths exactly (ping-pong and loop,
// checked at known times), their shapes move with them, their velocity is the path's, reset puts platforms and
// crates back, a bad dt moves nothing, stepping allocates nothing, and a controller standing on a lift moved by
// kcc_level_step (DESIGN.md's frame order: the level first, then the character) rides it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "test_level_support.h"

#if defined( __has_feature )
#if __has_feature( address_sanitizer )
#define KCC_TEST_ASAN 1
#endif
#endif
#if defined( __SANITIZE_ADDRESS__ ) || defined( KCC_TEST_ASAN )
// AddressSanitizer's own count (it replaces malloc); declared here, as GCC ships no header for it.
size_t __sanitizer_get_current_allocated_bytes( void );
#else
#include <malloc.h>
#endif

// Heap bytes the whole process has in use, Chipmunk's included (its spatial hash takes memory from the C heap).
static size_t heap_in_use( void )
{
#if defined( __SANITIZE_ADDRESS__ ) || defined( KCC_TEST_ASAN )
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 info = mallinfo2();
	return info.uordblks + info.hblkhd;
#endif
}

#define DT ( 1.0f / 60.0f )

static void step_seconds( kcc_level* level, int frames )
{
	for ( int i = 0; i < frames; ++i )
	{
		kcc_level_step( level, DT );
	}
}

static void assert_body_at( cpBody* body, double x, double y )
{
	cpVect p = cpBodyGetPosition( body );
	if ( fabs( p.x - x ) > 1e-5 || fabs( p.y - y ) > 1e-5 )
	{
		fprintf( stderr, "body at (%.9g, %.9g), expected (%g, %g)\n", p.x, p.y, x, y );
	}
	assert_true( fabs( p.x - x ) <= 1e-5 && fabs( p.y - y ) <= 1e-5 );
}

static void test_ping_pong_path( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "features.tmj", NULL );
	const kcc_level_platform* lift = kcc_level_find_platform( level, "lift" );
	// Up 4 units at 2 units/s from (25, 3.75), then back down.
	assert_body_at( lift->body, 25.0, 3.75 );
	step_seconds( level, 60 );
	assert_float_equal( kcc_level_get_time( level ), 1.0, 1e-6 );
	assert_body_at( lift->body, 25.0, 5.75 );
	assert_float_equal( kcc_level_get_platform_velocity( level, lift ).x, 0.0f, 0.0f );
	assert_float_equal( kcc_level_get_platform_velocity( level, lift ).y, 2.0f, 1e-3f );
	// Its shape moved with it (reindexed: the space's queries see it there).
	assert_shape_box( lift->object->shapes[0], 24.0, 5.5, 26.0, 6.0, 1e-5 );
	assert_true( space_shape_at( space, 25.0, 5.75 ) == lift->object->shapes[0] );
	assert_int_equal( space_shapes_at( space, 25.0, 3.75 ).count, 0 );
	step_seconds( level, 60 );
	assert_body_at( lift->body, 25.0, 7.75 );
	step_seconds( level, 60 );
	assert_body_at( lift->body, 25.0, 5.75 );
	assert_float_equal( kcc_level_get_platform_velocity( level, lift ).y, -2.0f, 1e-3f );
	step_seconds( level, 60 );
	assert_body_at( lift->body, 25.0, 3.75 );
	// Moved by position: Chipmunk's velocity stays 0, so a game's cpSpaceStep does not move it again.
	assert_float_equal( cpBodyGetVelocity( lift->body ).y, 0.0, 0.0 );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_loop_path( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "features.tmj", NULL );
	const kcc_level_platform* carousel = kcc_level_find_platform( level, "carousel" );
	// Around a 2 x 2 square at 3 units/s from (28.5, 5.75): right, up, left, down.
	step_seconds( level, 60 );
	assert_body_at( carousel->body, 30.5, 6.75 );
	step_seconds( level, 60 );
	assert_body_at( carousel->body, 28.5, 7.75 );
	step_seconds( level, 40 ); // 8 units in 8/3 s: back at the start, and on around
	assert_body_at( carousel->body, 28.5, 5.75 );
	step_seconds( level, 20 );
	assert_body_at( carousel->body, 29.5, 5.75 );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_reset_and_bad_dt( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "features.tmj", NULL );
	const kcc_level_platform* lift = kcc_level_find_platform( level, "lift" );
	const kcc_level_object* crate = kcc_level_find_object( level, "crate" );
	step_seconds( level, 30 );
	cpBodySetPosition( crate->body, cpv( 9.0, 9.0 ) ); // pushed somewhere by the game
	kcc_level_step( level, 0.0f );
	kcc_level_step( level, -1.0f );
	kcc_level_step( level, NAN );
	kcc_level_step( level, INFINITY );
	assert_body_at( lift->body, 25.0, 4.75 );
	assert_float_equal( kcc_level_get_time( level ), 0.5, 1e-6 );
	kcc_level_reset( level );
	assert_float_equal( kcc_level_get_time( level ), 0.0, 0.0 );
	assert_body_at( lift->body, 25.0, 3.75 );
	assert_body_at( crate->body, 5.5, 2.5 );
	assert_shape_box( crate->shapes[0], 5.0, 2.0, 6.0, 3.0, 1e-12 );
	assert_float_equal( kcc_level_get_platform_velocity( level, lift ).y, 0.0f, 0.0f );
	// The same steps again give the same positions, bit for bit.
	step_seconds( level, 30 );
	cpVect again = cpBodyGetPosition( lift->body );
	kcc_level_reset( level );
	step_seconds( level, 30 );
	cpVect third = cpBodyGetPosition( lift->body );
	assert_memory_equal( &again, &third, sizeof( again ) );
	// NULL is harmless everywhere.
	kcc_level_step( NULL, DT );
	kcc_level_reset( NULL );
	assert_int_equal( kcc_level_platform_count( NULL ), 0 );
	assert_null( kcc_level_get_platform( level, 2 ) );
	assert_null( kcc_level_get_platform( level, -1 ) );
	assert_null( kcc_level_find_platform( level, "no such" ) );
	assert_null( kcc_level_get_object( level, kcc_level_object_count( level ) ) );
	assert_null( kcc_level_get_shape_name( level, NULL ) );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_stepping_allocates_nothing( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "features.tmj", NULL );
	step_seconds( level, 1 );
	uint64_t before = kcc_test_allocation_count();
	step_seconds( level, 600 );
	kcc_level_reset( level );
	assert_true( kcc_test_allocation_count() == before );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

// The setup the docs and the test kit use: a spatial hash, platforms moved by kcc_level_step, characters moved by
// the controller, no cpSpaceStep. Chipmunk's hash left an entry behind in each cell a reindexed shape had covered
// until a query passed there; along the platforms' paths nothing queries, so those cells grew by an entry every
// frame and so did each reindex into them (a level step cost 5 us at frame 1,000 and 680 us at frame 30,000; the
// hash allocated another 32 KB every few hundred frames). Now a long run holds the heap it held after the warm-up,
// to the byte, while the lift, the carousel and a character walking back and forth keep moving.
static void test_a_long_run_in_a_spatial_hash_stays_flat( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpSpaceUseSpatialHash( space, 2.0, 1024 );
	kcc_level* level = level_load( space, "features.tmj", NULL );
	kcc_character_def def = kcc_default_character_def();
	def.controller.filter.categories = kcc_default_level_def().solid_category;
	kcc_character* walker = kcc_character_create( space, &def, kcc_v2( 2.0f, 2.62f ) );
	assert_non_null( walker );
	const kcc_level_platform* lift = kcc_level_find_platform( level, "lift" );
	size_t warm = 0;
	for ( int frame = 1; frame <= 13000; ++frame )
	{
		kcc_level_step( level, DT );
		kcc_input input = { { { ( frame / 90 ) % 2 == 0 ? 1.0f : -1.0f, 0.0f } }, false, false, false };
		assert_int_equal( kcc_character_step( walker, input, DT, NULL ), KCC_OK );
		if ( frame == 1000 )
		{
			warm = heap_in_use();
		}
	}
	size_t later = heap_in_use();
	if ( later != warm )
	{
		fprintf( stderr, "heap in use: %zu bytes after 1,000 frames, %zu after 13,000\n", warm, later );
	}
	assert_true( later == warm );
	// The platforms did move all along, and the space's queries still find the lift where it is.
	cpVect at = cpBodyGetPosition( lift->body );
	assert_true( space_shape_at( space, at.x, at.y ) == lift->object->shapes[0] );
	kcc_character_destroy( walker );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

typedef struct locked_level
{
	kcc_level* level;
	int calls;
	kcc_status step, reset;
	int shapes_inside; // shapes in the space right after a destroy, still inside the callback
} locked_level;

static void step_inside_query( cpShape* shape, void* data )
{
	(void)shape;
	locked_level* call = data;
	if ( call->calls++ == 0 )
	{
		call->step = kcc_level_step( call->level, DT );
		call->reset = kcc_level_reset( call->level );
	}
}

// kcc_level_step and kcc_level_reset from a query's callback (the space locked) aborted inside Chipmunk ("cannot
// manually reindex objects while the space is locked"). They return KCC_ERROR_SPACE_LOCKED and change nothing.
static void test_step_and_reset_from_a_callback_are_refused( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "features.tmj", NULL );
	const kcc_level_platform* lift = kcc_level_find_platform( level, "lift" );
	step_seconds( level, 30 );
	locked_level call = { level, 0, KCC_OK, KCC_OK, 0 };
	cpSpaceBBQuery( space, cpBBNew( 24.0, 4.0, 26.0, 6.0 ), CP_SHAPE_FILTER_ALL, step_inside_query, &call );
	assert_true( call.calls >= 1 );
	assert_int_equal( call.step, KCC_ERROR_SPACE_LOCKED );
	assert_int_equal( call.reset, KCC_ERROR_SPACE_LOCKED );
	assert_float_equal( kcc_level_get_time( level ), 0.5, 1e-6 );
	assert_body_at( lift->body, 25.0, 4.75 );
	// Out of the callback both work again.
	assert_int_equal( kcc_level_step( level, DT ), KCC_OK );
	assert_int_equal( kcc_level_reset( level ), KCC_OK );
	assert_body_at( lift->body, 25.0, 3.75 );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static cpBool destroy_level_on_contact( cpArbiter* arbiter, cpSpace* space, cpDataPointer data )
{
	(void)arbiter;
	locked_level* call = data;
	if ( call->calls++ == 0 )
	{
		kcc_level_destroy( call->level ); // the player reached the exit: the next level replaces this one
		call->shapes_inside = space_shape_count( space );
		kcc_level_destroy( call->level ); // twice in the callback: still one destroy
	}
	return cpTrue;
}

// kcc_level_destroy from a collision handler during cpSpaceStep aborted inside Chipmunk (cpSpace.c:526: removing a
// shape from a locked space). The level is removed when the step returns (Chipmunk's post-step callback): the space
// then holds only the game's own ball, and AddressSanitizer sees every level allocation freed once.
static void test_destroy_from_a_collision_handler( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpSpaceSetGravity( space, cpv( 0.0, -10.0 ) );
	kcc_level* level = level_load( space, "features.tmj", NULL );
	cpBody* ball = cpSpaceAddBody( space, cpBodyNew( 1.0, cpMomentForCircle( 1.0, 0.0, 0.25, cpvzero ) ) );
	cpBodySetPosition( ball, cpv( 2.0, 3.0 ) ); // above the ground (its top at y = 2)
	cpShape* ball_shape = cpSpaceAddShape( space, cpCircleShapeNew( ball, 0.25, cpvzero ) );
	locked_level call = { level, 0, KCC_OK, KCC_OK, 0 };
	cpCollisionHandler* handler = cpSpaceAddDefaultCollisionHandler( space );
	handler->beginFunc = destroy_level_on_contact;
	handler->userData = &call;
	int shapes = space_shape_count( space );
	for ( int i = 0; i < 120 && call.calls == 0; ++i )
	{
		cpSpaceStep( space, 1.0 / 60.0 );
	}
	assert_true( call.calls >= 1 ); // the ball met several ground boxes in that step
	assert_int_equal( call.shapes_inside, shapes ); // still there while Chipmunk held the space
	assert_int_equal( space_shape_count( space ), 1 );
	assert_int_equal( space_body_count( space ), 1 );
	cpSpaceRemoveShape( space, ball_shape );
	cpSpaceRemoveBody( space, ball );
	cpShapeFree( ball_shape );
	cpBodyFree( ball );
	cpSpaceFree( space );
}

// Bad arguments get a status and move nothing; dt == 0 is a paused frame.
static void test_step_statuses( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "features.tmj", NULL );
	const kcc_level_platform* lift = kcc_level_find_platform( level, "lift" );
	assert_int_equal( kcc_level_step( level, DT ), KCC_OK );
	cpVect at = cpBodyGetPosition( lift->body );
	assert_int_equal( kcc_level_step( level, 0.0f ), KCC_OK );
	assert_int_equal( kcc_level_step( level, -DT ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_level_step( level, NAN ), KCC_ERROR_NOT_FINITE );
	assert_int_equal( kcc_level_step( level, INFINITY ), KCC_ERROR_NOT_FINITE );
	assert_int_equal( kcc_level_step( NULL, DT ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_level_reset( NULL ), KCC_ERROR_NULL_ARGUMENT );
	cpVect still = cpBodyGetPosition( lift->body );
	assert_memory_equal( &at, &still, sizeof( at ) );
	assert_float_equal( kcc_level_get_time( level ), DT, 1e-9 );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

static void test_a_character_rides_the_lift( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_level* level = level_load( space, "features.tmj", NULL );
	const kcc_level_platform* lift = kcc_level_find_platform( level, "lift" );
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 25.0f, 4.0f + 0.6f + def.skin ); // on the lift's top (y = 4)
	kcc_controller* c = kcc_controller_create( space, &def );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	kcc_move_result r;
	// One move first, so the controller knows it stands on the lift before the lift moves.
	assert_int_equal( kcc_controller_move_and_slide( c, velocity, DT, &velocity, &r ), KCC_OK );
	assert_true( r.floor_shape == lift->object->shapes[0] );
	for ( int frame = 0; frame < 120; ++frame )
	{
		kcc_level_step( level, DT ); // platforms first
		velocity.y -= 30.0f * DT;
		assert_int_equal( kcc_controller_move_and_slide( c, velocity, DT, &velocity, &r ), KCC_OK );
		assert_true( r.flags & KCC_ON_FLOOR );
		assert_true( r.floor_shape == lift->object->shapes[0] );
		assert_false( r.flags & ( KCC_DEPENETRATED | KCC_CRUSHED ) );
		// Standing a skin above the lift's top wherever it is.
		double top = cpBodyGetPosition( lift->body ).y + 0.25;
		assert_float_equal( r.position.y - 0.6f, top + def.skin, 2e-3 );
	}
	assert_float_equal( kcc_controller_get_position( c ).y, 7.75 + 0.25 + 0.6 + def.skin, 2e-3 );
	kcc_controller_destroy( c );
	kcc_level_destroy( level );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_ping_pong_path ),
		cmocka_unit_test( test_loop_path ),
		cmocka_unit_test( test_reset_and_bad_dt ),
		cmocka_unit_test( test_stepping_allocates_nothing ),
		cmocka_unit_test( test_a_character_rides_the_lift ),
		cmocka_unit_test( test_a_long_run_in_a_spatial_hash_stays_flat ),
		cmocka_unit_test( test_step_and_reset_from_a_callback_are_refused ),
		cmocka_unit_test( test_destroy_from_a_collision_handler ),
		cmocka_unit_test( test_step_statuses ),
	};
	return cmocka_run_group_tests_name( "level runtime", tests, NULL, NULL );
}
