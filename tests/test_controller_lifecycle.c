// SPDX-License-Identifier: MIT
// What a C user gets for lifecycle and threading mistakes (docs/controller.md, "Lifetime and threads"):
// destroying a controller twice is refused in every build; using a destroyed one is named by an assert in builds
// with asserts; a call made while Chipmunk has the space locked (from a query or step callback) returns
// KCC_ERROR_SPACE_LOCKED and changes nothing, and a destroy there is done when the space unlocks; a call while
// another thread uses the same space is named by an assert in builds with asserts; a corrupted state snapshot is
// refused.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../controller/internal.h"
#include "assert_recorder.h"
#include "controller_scene.h"

static kcc_controller* make_controller( cpSpace* space )
{
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 0.0f, 2.0f );
	return kcc_controller_create( space, &def );
}

static void test_double_destroy_is_refused( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller* c = make_controller( space );
	kcc_controller* other = make_controller( space );
	assert_non_null( c );
	kcc_controller_destroy( c );
	assert_int_equal( s_assert_count, 0 );
	kcc_controller_destroy( c ); // a double free without the registry: AddressSanitizer would stop here
	expect_message( "kcc_controller_destroy", "destroyed already" );
	// The other controller on the space is untouched and still works.
	assert_int_equal( kcc_controller_move( other, kcc_v2( 0.5f, 0.0f ), NULL ), KCC_OK );
	assert_true( kcc_controller_get_position( other ).x == 0.5f );
	kcc_controller_destroy( other );
	cpSpaceFree( space );
}

#if defined( KCC_ENABLE_ASSERT )
// Only builds with asserts can tell: in release builds the handle points at freed memory.
static void test_use_after_destroy_is_named( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller* c = make_controller( space );
	kcc_controller* keep = make_controller( space ); // keeps the registry's table alive
	kcc_controller_destroy( c );
	kcc_move_result result;
	assert_int_equal( kcc_controller_move( c, kcc_v2( 1.0f, 0.0f ), &result ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_controller_move", "was destroyed" );
	reset_asserts();
	(void)kcc_controller_get_position( c );
	expect_message( "kcc_controller_get_position", "was destroyed" );
	reset_asserts();
	assert_int_equal( kcc_controller_set_position( c, kcc_v2( 0.0f, 0.0f ) ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_controller_set_position", "was destroyed" );
	kcc_controller_destroy( keep );
	cpSpaceFree( space );
}
#endif

typedef struct locked_call
{
	kcc_controller* c;
	kcc_status status;
	int calls;
} locked_call;

static void move_inside_query( cpShape* shape, void* data )
{
	(void)shape;
	locked_call* call = data;
	call->status = kcc_controller_move( call->c, kcc_v2( 1.0f, 0.0f ), NULL );
	call->calls += 1;
}

static void test_call_from_a_callback_is_refused( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpShape* box = cpSpaceAddShape( space, cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( -5, -1, 5, 0 ), 0.0 ) );
	kcc_controller* c = make_controller( space );
	locked_call call = { c, KCC_OK, 0 };
	cpSpaceBBQuery( space, cpBBNew( -1, -1, 1, 0 ), CP_SHAPE_FILTER_ALL, move_inside_query, &call );
	assert_int_equal( call.calls, 1 );
	assert_int_equal( call.status, KCC_ERROR_SPACE_LOCKED );
	expect_message( "kcc_controller_move", "locked" );
	vec2s p = kcc_controller_get_position( c );
	assert_true( p.x == 0.0f && p.y == 2.0f );
	assert_string_not_equal( kcc_status_string( KCC_ERROR_SPACE_LOCKED ), "unknown status" );
	kcc_controller_destroy( c );
	cpSpaceRemoveShape( space, box );
	cpShapeFree( box );
	cpSpaceFree( space );
}

#if defined( KCC_ENABLE_ASSERT )
// Two threads on one space: the controller's call finds the space in use (what the other thread's call marks).
static void test_two_threads_on_one_space_are_named( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller* a = make_controller( space );
	kcc_controller* b = make_controller( space );
	assert_true( kcc_space_enter( a->watch ) ); // another thread is inside a's move
	assert_int_equal( kcc_controller_move( b, kcc_v2( 1.0f, 0.0f ), NULL ), KCC_ERROR_SPACE_LOCKED );
	expect_message( "kcc_controller_move", "another thread" );
	kcc_space_leave( a->watch );
	reset_asserts();
	assert_int_equal( kcc_controller_move( b, kcc_v2( 1.0f, 0.0f ), NULL ), KCC_OK );
	assert_int_equal( s_assert_count, 0 );
	kcc_controller_destroy( a );
	kcc_controller_destroy( b );
	cpSpaceFree( space );
}
#endif

static void test_corrupted_state_is_refused( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller* c = make_controller( space );
	kcc_controller_state good = kcc_controller_get_state( c );
	kcc_controller_state bad = good;
	bad.flags = 0xffffffffu;
	assert_int_equal( kcc_controller_set_state( c, &bad ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_controller_set_state", "out of range" );
	bad = good;
	bad.floor_normal = kcc_v2( 3.0f, 0.0f );
	assert_int_equal( kcc_controller_set_state( c, &bad ), KCC_ERROR_INVALID_ARGUMENT );
	bad = good;
	bad.position = kcc_v2( 5.0f, 5.0f );
	bad.internal_cookie = 7;
	assert_int_equal( kcc_controller_set_state( c, &bad ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_controller_set_state", "kcc_controller_get_state" );
	vec2s p = kcc_controller_get_position( c );
	assert_true( p.x == 0.0f && p.y == 2.0f );
	assert_int_equal( kcc_controller_set_state( c, &good ), KCC_OK );
	kcc_controller_destroy( c );
	cpSpaceFree( space );
}

static void count_one( cpShape* shape, void* data )
{
	(void)shape;
	*(int*)data += 1;
}

static void count_body( cpBody* body, void* data )
{
	(void)body;
	*(int*)data += 1;
}

static int shape_count( cpSpace* space )
{
	int n = 0;
	cpSpaceEachShape( space, count_one, &n );
	return n;
}

static int body_count( cpSpace* space )
{
	int n = 0;
	cpSpaceEachBody( space, count_body, &n );
	return n;
}

typedef struct destroy_call
{
	cpSpace* space;
	kcc_controller* c;
	int calls;
	int shapes_inside; // shapes in the space right after the destroy, still inside the callback
	int asserts_inside;
} destroy_call;

static void destroy_inside_query( cpShape* shape, void* data )
{
	(void)shape;
	destroy_call* call = data;
	if ( call->calls++ > 0 )
	{
		return;
	}
	kcc_controller_destroy( call->c );
	call->shapes_inside = shape_count( call->space );
	call->asserts_inside = s_assert_count;
	kcc_controller_destroy( call->c ); // a second destroy is refused, not a double free
}

// kcc_controller_destroy from a query's callback (the space locked) left the character in the space and said
// nothing (a build with asserts stopped; a release build returned). Chipmunk can not remove a body while the space is
// locked, so the character goes when the query returns (its post-step callback), and the handle is dead at once.
static void test_destroy_from_a_query_callback( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpBody* ground = cpSpaceGetStaticBody( space );
	cpShape* floor = cpSpaceAddShape( space, cpBoxShapeNew2( ground, cpBBNew( -5, -1, 5, 0 ), 0.0 ) );
	kcc_controller* c = make_controller( space );
	kcc_controller* other = make_controller( space );
	int shapes = shape_count( space ), bodies = body_count( space );
	destroy_call call = { space, c, 0, 0, 0 };
	cpSpaceBBQuery( space, cpBBNew( -1, -1, 1, 0 ), CP_SHAPE_FILTER_ALL, destroy_inside_query, &call );
	assert_int_equal( call.calls, 1 );
	assert_int_equal( call.shapes_inside, shapes ); // still there while Chipmunk held the space
	assert_int_equal( call.asserts_inside, 0 );     // the destroy itself is not an error
	expect_message( "kcc_controller_destroy", "destroyed already" );
	assert_int_equal( shape_count( space ), shapes - 1 );
	assert_int_equal( body_count( space ), bodies - 1 );
	// The other character is untouched and moves through where the first one stood.
	assert_int_equal( kcc_controller_move( other, kcc_v2( 0.5f, 0.0f ), NULL ), KCC_OK );
	assert_true( kcc_controller_get_position( other ).x == 0.5f );
	kcc_controller_destroy( other );
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	assert_int_equal( shape_count( space ), 0 );
	cpSpaceFree( space );
}

static cpBool destroy_on_contact( cpArbiter* arbiter, cpSpace* space, cpDataPointer data )
{
	(void)space;
	destroy_call* call = data;
	CP_ARBITER_GET_SHAPES( arbiter, a, b );
	if ( call->calls == 0 && ( cpShapeGetUserData( a ) == call->c || cpShapeGetUserData( b ) == call->c ) )
	{
		call->calls += 1;
		kcc_controller_destroy( call->c ); // a falling rock hits the character: it dies
	}
	return cpTrue;
}

// The same from a collision handler during cpSpaceStep: a dynamic ball falls on the character, whose begin handler
// destroys it; when cpSpaceStep returns, the character's body and shape are gone and the ball falls on.
static void test_destroy_from_a_collision_handler( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpSpaceSetGravity( space, cpv( 0.0, -10.0 ) );
	kcc_controller* c = make_controller( space ); // a capsule from y = 1.4 to 2.6
	cpBody* ball = cpSpaceAddBody( space, cpBodyNew( 1.0, cpMomentForCircle( 1.0, 0.0, 0.25, cpvzero ) ) );
	cpBodySetPosition( ball, cpv( 0.0, 3.5 ) );
	cpShape* ball_shape = cpSpaceAddShape( space, cpCircleShapeNew( ball, 0.25, cpvzero ) );
	destroy_call call = { space, c, 0, 0, 0 };
	cpCollisionHandler* handler = cpSpaceAddDefaultCollisionHandler( space );
	handler->beginFunc = destroy_on_contact;
	handler->userData = &call;
	int shapes = shape_count( space ), bodies = body_count( space );
	for ( int i = 0; i < 120 && call.calls == 0; ++i )
	{
		cpSpaceStep( space, 1.0 / 60.0 );
	}
	assert_int_equal( call.calls, 1 );
	assert_int_equal( s_assert_count, 0 );
	assert_int_equal( shape_count( space ), shapes - 1 );
	assert_int_equal( body_count( space ), bodies - 1 );
	double y = cpBodyGetPosition( ball ).y;
	for ( int i = 0; i < 30; ++i )
	{
		cpSpaceStep( space, 1.0 / 60.0 );
	}
	assert_true( cpBodyGetPosition( ball ).y < y - 0.5 ); // nothing holds it up any more
	cpSpaceRemoveShape( space, ball_shape );
	cpSpaceRemoveBody( space, ball );
	cpShapeFree( ball_shape );
	cpBodyFree( ball );
	cpSpaceFree( space );
}

typedef struct reindex_call
{
	cpBody* body;
	kcc_status status;
	int calls;
} reindex_call;

static void reindex_inside_query( cpShape* shape, void* data )
{
	reindex_call* call = data;
	if ( call->calls++ == 0 )
	{
		call->status = kcc_space_reindex_body( cpShapeGetSpace( shape ), call->body );
	}
}

// kcc_space_reindex_body from a callback: Chipmunk would abort on the reindex; the call refuses, and the shape stays
// indexed where it was.
static void test_reindex_from_a_callback_is_refused( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpBody* door = cpSpaceAddBody( space, cpBodyNewKinematic() );
	cpShape* shape = cpSpaceAddShape( space, cpBoxShapeNew2( door, cpBBNew( -0.5, -0.5, 0.5, 0.5 ), 0.0 ) );
	assert_int_equal( kcc_space_reindex_body( space, door ), KCC_OK );
	cpBodySetPosition( door, cpv( 5.0, 0.0 ) );
	reindex_call call = { door, KCC_OK, 0 };
	cpSpaceBBQuery( space, cpBBNew( -1.0, -1.0, 1.0, 1.0 ), CP_SHAPE_FILTER_ALL, reindex_inside_query, &call );
	assert_int_equal( call.calls, 1 );
	assert_int_equal( call.status, KCC_ERROR_SPACE_LOCKED );
	expect_message( "kcc_space_reindex_body", "locked" );
	assert_true( cpShapeGetBB( shape ).l == -0.5 );
	reset_asserts();
	assert_int_equal( kcc_space_reindex_body( space, door ), KCC_OK ); // out of the callback
	assert_true( cpShapeGetBB( shape ).l == 4.5 );
	assert_int_equal( kcc_space_reindex_body( NULL, door ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_space_reindex_body", "NULL" );
	assert_int_equal( kcc_space_reindex_body( space, NULL ), KCC_ERROR_NULL_ARGUMENT );
	cpSpaceRemoveShape( space, shape );
	cpSpaceRemoveBody( space, door );
	cpShapeFree( shape );
	cpBodyFree( door );
	cpSpaceFree( space );
}

// Many controllers made and destroyed in any order (the registry grows and empties), each still a live handle.
static void test_many_controllers( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller* cs[300];
	for ( int i = 0; i < 300; ++i )
	{
		cs[i] = make_controller( space );
		assert_non_null( cs[i] );
	}
	for ( int i = 0; i < 300; i += 2 )
	{
		kcc_controller_destroy( cs[i] );
	}
	for ( int i = 1; i < 300; i += 2 )
	{
		assert_int_equal( kcc_controller_move( cs[i], kcc_v2( 0.1f, 0.0f ), NULL ), KCC_OK );
		kcc_controller_destroy( cs[i] );
	}
	assert_int_equal( s_assert_count, 0 );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup( test_double_destroy_is_refused, reset_recorder ),
#if defined( KCC_ENABLE_ASSERT )
		cmocka_unit_test_setup( test_use_after_destroy_is_named, reset_recorder ),
		cmocka_unit_test_setup( test_two_threads_on_one_space_are_named, reset_recorder ),
#endif
		cmocka_unit_test_setup( test_call_from_a_callback_is_refused, reset_recorder ),
		cmocka_unit_test_setup( test_corrupted_state_is_refused, reset_recorder ),
		cmocka_unit_test_setup( test_many_controllers, reset_recorder ),
		cmocka_unit_test_setup( test_destroy_from_a_query_callback, reset_recorder ),
		cmocka_unit_test_setup( test_destroy_from_a_collision_handler, reset_recorder ),
		cmocka_unit_test_setup( test_reindex_from_a_callback_is_refused, reset_recorder ),
	};
	return cmocka_run_group_tests( tests, install_recorder, NULL );
}
