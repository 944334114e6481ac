// SPDX-License-Identifier: MIT
// Controller API: the def and its defaults, create / destroy and their refusals, status strings, the body and
// shape in the space, state snapshot / restore, and no heap allocation inside a move.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "alloc_hooks.h"
#include "controller_scene.h"

// Bad input is fed on purpose here: record the debug assert and let the function take its release path.
#include "assert_recorder.h"

static void test_default_def_values( void** state )
{
	(void)state;
	kcc_controller_def def = kcc_default_controller_def();
	assert_int_equal( def.shape.type, KCC_SHAPE_CAPSULE );
	assert_float_equal( def.shape.capsule.a.x, 0.0f, 0.0f );
	assert_float_equal( def.shape.capsule.a.y, -0.3f, 1e-7f );
	assert_float_equal( def.shape.capsule.b.x, 0.0f, 0.0f );
	assert_float_equal( def.shape.capsule.b.y, 0.3f, 1e-7f );
	assert_float_equal( def.shape.capsule.radius, 0.3f, 1e-7f );
	assert_float_equal( def.position.x, 0.0f, 0.0f );
	assert_float_equal( def.position.y, 0.0f, 0.0f );
	assert_float_equal( def.up.x, 0.0f, 0.0f );
	assert_float_equal( def.up.y, 1.0f, 0.0f );
	assert_float_equal( def.skin, 0.01f, 1e-9f );
	assert_float_equal( def.min_move, 1e-4f, 1e-10f );
	assert_int_equal( def.max_slides, 4 );
	assert_float_equal( def.max_floor_angle, 0.25f * SCENE_PI, 1e-6f );
	assert_float_equal( def.snap_distance, 0.1f, 1e-9f );
	assert_float_equal( def.step_height, 0.0f, 0.0f );
	assert_true( def.stop_on_slope );
	assert_false( def.constant_speed_on_slopes );
	assert_true( def.slide_on_ceiling );
	assert_int_equal( def.mode, KCC_MODE_GROUNDED );
	assert_true( def.filter.categories == CP_ALL_CATEGORIES );
	assert_true( def.filter.mask == CP_ALL_CATEGORIES );
	assert_true( def.one_way_categories == 0 );
	assert_true( def.pushable_categories == 0 );
	assert_float_equal( def.max_displacement, 1000.0f, 0.0f );
	assert_float_equal( def.max_coordinate, 1.0e6f, 0.0f );
	assert_int_equal( def.max_depenetration_iterations, 4 );
	assert_int_equal( def.max_candidates, 256 );
	assert_int_not_equal( def.internal_cookie, 0 );
	assert_null( kcc_controller_def_problem( &def ) );
}

static void test_create_refuses_null_arguments( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	kcc_controller_def def = kcc_default_controller_def();
	s_assert_count = 0;
	assert_null( kcc_controller_create( NULL, &def ) );
	assert_null( kcc_controller_create( s->space, NULL ) );
	assert_non_null( kcc_controller_def_problem( NULL ) );
	// Nothing was added to the space.
	assert_null( cpSpacePointQueryNearest( s->space, cpvzero, 10.0, CP_SHAPE_FILTER_ALL, NULL ) );
	scene_destroy( s );
}

static void test_create_refuses_uninitialised_def( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	// Every field right except the cookie: a def not made by kcc_default_controller_def.
	kcc_controller_def def = kcc_default_controller_def();
	def.internal_cookie = 0;
	assert_null( kcc_controller_create( s->space, &def ) );
	assert_non_null( kcc_controller_def_problem( &def ) );

	kcc_controller_def zeroed;
	memset( &zeroed, 0, sizeof( zeroed ) );
	assert_null( kcc_controller_create( s->space, &zeroed ) );
	assert_non_null( kcc_controller_def_problem( &zeroed ) );
	assert_null( cpSpacePointQueryNearest( s->space, cpvzero, 10.0, CP_SHAPE_FILTER_ALL, NULL ) );
	scene_destroy( s );
}

typedef struct bad_field_case
{
	const char* field; // must appear in kcc_controller_def_problem's message
	void ( *spoil )( kcc_controller_def* def );
} bad_field_case;

static void spoil_shape_invalid( kcc_controller_def* d )
{
	d->shape.type = KCC_SHAPE_INVALID;
}
static void spoil_shape_sector( kcc_controller_def* d )
{
	d->shape = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 0.5f, 1.0f );
}
static void spoil_shape_nan_radius( kcc_controller_def* d )
{
	d->shape.capsule.radius = NAN;
}
static void spoil_position_nan( kcc_controller_def* d )
{
	d->position.x = NAN;
}
static void spoil_position_inf( kcc_controller_def* d )
{
	d->position.y = INFINITY;
}
static void spoil_position_far( kcc_controller_def* d )
{
	d->position.x = 2.0f * d->max_coordinate;
}
static void spoil_up_zero( kcc_controller_def* d )
{
	d->up = kcc_v2( 0.0f, 0.0f );
}
static void spoil_up_nan( kcc_controller_def* d )
{
	d->up.y = NAN;
}
static void spoil_skin_negative( kcc_controller_def* d )
{
	d->skin = -0.01f;
}
static void spoil_skin_nan( kcc_controller_def* d )
{
	d->skin = NAN;
}
static void spoil_min_move_negative( kcc_controller_def* d )
{
	d->min_move = -1.0f;
}
static void spoil_min_move_nan( kcc_controller_def* d )
{
	d->min_move = NAN;
}
static void spoil_max_slides_zero( kcc_controller_def* d )
{
	d->max_slides = 0;
}
static void spoil_max_slides_big( kcc_controller_def* d )
{
	d->max_slides = 17;
}
static void spoil_floor_angle_negative( kcc_controller_def* d )
{
	d->max_floor_angle = -0.1f;
}
static void spoil_floor_angle_right( kcc_controller_def* d )
{
	d->max_floor_angle = 0.5f * SCENE_PI + 1e-3f;
}
static void spoil_floor_angle_nan( kcc_controller_def* d )
{
	d->max_floor_angle = NAN;
}
static void spoil_snap_negative( kcc_controller_def* d )
{
	d->snap_distance = -0.1f;
}
static void spoil_snap_inf( kcc_controller_def* d )
{
	d->snap_distance = INFINITY;
}
static void spoil_step_negative( kcc_controller_def* d )
{
	d->step_height = -0.2f;
}
static void spoil_step_nan( kcc_controller_def* d )
{
	d->step_height = NAN;
}
static void spoil_mode( kcc_controller_def* d )
{
	d->mode = (kcc_motion_mode)7;
}
static void spoil_max_displacement_zero( kcc_controller_def* d )
{
	d->max_displacement = 0.0f;
}
static void spoil_max_displacement_nan( kcc_controller_def* d )
{
	d->max_displacement = NAN;
}
static void spoil_max_coordinate_negative( kcc_controller_def* d )
{
	d->max_coordinate = -1.0f;
}
static void spoil_depenetration_zero( kcc_controller_def* d )
{
	d->max_depenetration_iterations = 0;
}
static void spoil_depenetration_big( kcc_controller_def* d )
{
	d->max_depenetration_iterations = 17;
}

static void spoil_candidates_small( kcc_controller_def* d )
{
	d->max_candidates = 15;
}
static void spoil_candidates_big( kcc_controller_def* d )
{
	d->max_candidates = 65537;
}

static void test_create_refuses_each_bad_field( void** state )
{
	(void)state;
	static const bad_field_case cases[] = {
		{ "shape", spoil_shape_invalid },
		{ "shape", spoil_shape_sector },
		{ "shape", spoil_shape_nan_radius },
		{ "position", spoil_position_nan },
		{ "position", spoil_position_inf },
		{ "position", spoil_position_far },
		{ "up", spoil_up_zero },
		{ "up", spoil_up_nan },
		{ "skin", spoil_skin_negative },
		{ "skin", spoil_skin_nan },
		{ "min_move", spoil_min_move_negative },
		{ "min_move", spoil_min_move_nan },
		{ "max_slides", spoil_max_slides_zero },
		{ "max_slides", spoil_max_slides_big },
		{ "max_floor_angle", spoil_floor_angle_negative },
		{ "max_floor_angle", spoil_floor_angle_right },
		{ "max_floor_angle", spoil_floor_angle_nan },
		{ "snap_distance", spoil_snap_negative },
		{ "snap_distance", spoil_snap_inf },
		{ "step_height", spoil_step_negative },
		{ "step_height", spoil_step_nan },
		{ "mode", spoil_mode },
		{ "max_displacement", spoil_max_displacement_zero },
		{ "max_displacement", spoil_max_displacement_nan },
		{ "max_coordinate", spoil_max_coordinate_negative },
		{ "max_depenetration_iterations", spoil_depenetration_zero },
		{ "max_depenetration_iterations", spoil_depenetration_big },
		{ "max_candidates", spoil_candidates_small },
		{ "max_candidates", spoil_candidates_big },
	};
	scene* s = scene_create( 1.0f );
	int n = (int)( sizeof( cases ) / sizeof( cases[0] ) );
	for ( int i = 0; i < n; ++i )
	{
		kcc_controller_def def = kcc_default_controller_def();
		cases[i].spoil( &def );
		s_assert_count = 0;
		kcc_controller* c = kcc_controller_create( s->space, &def );
		if ( c != NULL )
		{
			print_error( "case %d (%s): create accepted a bad def\n", i, cases[i].field );
			kcc_controller_destroy( c );
			fail();
		}
		const char* problem = kcc_controller_def_problem( &def );
		if ( problem == NULL || strstr( problem, cases[i].field ) == NULL )
		{
			print_error( "case %d: problem '%s' does not name '%s'\n", i, problem ? problem : "(null)",
						 cases[i].field );
			fail();
		}
#if defined( KCC_ENABLE_ASSERT )
		// Debug builds assert, naming the field.
		assert_true( s_assert_count > 0 );
		assert_non_null( strstr( s_last_message, cases[i].field ) );
#endif
		assert_null( cpSpacePointQueryNearest( s->space, cpvzero, 10.0, CP_SHAPE_FILTER_ALL, NULL ) );
	}
	scene_destroy( s );
}

static void test_create_accepts_every_test_character( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		kcc_controller_def def = test_character_def( kind, kcc_v2( 1.0f, 2.0f ) );
		assert_null( kcc_controller_def_problem( &def ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		vec2s p = kcc_controller_get_position( c );
		assert_float_equal( p.x, 1.0f, 0.0f );
		assert_float_equal( p.y, 2.0f, 0.0f );
		assert_false( kcc_controller_is_on_floor( c ) );
		kcc_controller_destroy( c );
	}
	// A convex polygon character (a triangle) and an AABB are allowed too.
	vec2s tri[3] = { { { -0.3f, -0.4f } }, { { 0.3f, -0.4f } }, { { 0.0f, 0.4f } } };
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = kcc_make_polygon( tri, 3, 0.0f );
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	kcc_controller_destroy( c );
	scene_destroy( s );
}

static void test_destroy_null_is_a_no_op( void** state )
{
	(void)state;
	kcc_controller_destroy( NULL );
}

static void test_status_strings( void** state )
{
	(void)state;
	const kcc_status all[] = { KCC_OK, KCC_ERROR_NULL_ARGUMENT, KCC_ERROR_NOT_FINITE, KCC_ERROR_TOO_LARGE,
							   KCC_ERROR_INVALID_ARGUMENT, KCC_ERROR_SPACE_LOCKED, KCC_ERROR_BLOCKED,
							   KCC_ERROR_NOT_ON_ONE_WAY };
	int n = (int)( sizeof( all ) / sizeof( all[0] ) );
	for ( int i = 0; i < n; ++i )
	{
		const char* text = kcc_status_string( all[i] );
		assert_non_null( text );
		assert_true( strlen( text ) > 0 );
		assert_string_not_equal( text, kcc_status_string( (kcc_status)42 ) );
		for ( int j = 0; j < i; ++j )
		{
			assert_string_not_equal( text, kcc_status_string( all[j] ) );
		}
	}
	assert_non_null( kcc_status_string( (kcc_status)-99 ) );
	assert_non_null( kcc_status_string( (kcc_status)42 ) );
	// Every flag has its own name; anything else is unknown.
	for ( uint32_t bit = 1; bit & KCC_ALL_FLAGS; bit <<= 1 )
	{
		assert_string_not_equal( kcc_flag_string( bit ), "unknown flag" );
		assert_true( strstr( kcc_flag_string( bit ), "KCC_" ) == kcc_flag_string( bit ) );
		for ( uint32_t other = 1; other < bit; other <<= 1 )
		{
			assert_string_not_equal( kcc_flag_string( bit ), kcc_flag_string( other ) );
		}
	}
	assert_string_equal( kcc_flag_string( KCC_ON_FLOOR | KCC_ON_WALL ), "unknown flag" );
	assert_string_equal( kcc_flag_string( KCC_ALL_FLAGS + 1 ), "unknown flag" );
}

static int s_mode_asserts = 0;

static int count_mode_assert( const char* message, const char* file, int line )
{
	(void)file;
	(void)line;
	s_mode_asserts += strstr( message, "kcc_controller_set_mode" ) != NULL;
	return 0;
}

// The motion mode changes at run time (a door into a top-down room): FLOATING has no floor, GROUNDED finds it again.
static void test_set_mode( void** state )
{
	(void)state;
	kcc_set_assert_fcn( count_mode_assert );
	cpSpace* space = cpSpaceNew();
	cpShape* floor = cpSpaceAddShape( space, cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( -10, -1, 10, 0 ), 0.0 ) );
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 0.0f, 0.61f );
	kcc_controller* c = kcc_controller_create( space, &def );
	kcc_move_result r;
	assert_int_equal( kcc_controller_move( c, kcc_v2( 0.1f, -0.1f ), &r ), KCC_OK );
	assert_true( r.flags & KCC_ON_FLOOR );
	assert_int_equal( kcc_controller_set_mode( c, KCC_MODE_FLOATING ), KCC_OK );
	assert_int_equal( kcc_controller_get_mode( c ), KCC_MODE_FLOATING );
	assert_false( kcc_controller_is_on_floor( c ) );
	assert_int_equal( kcc_controller_move( c, kcc_v2( 0.1f, -0.1f ), &r ), KCC_OK );
	assert_true( ( r.flags & KCC_ON_FLOOR ) == 0 && ( r.flags & KCC_ON_WALL ) != 0 ); // every surface is a wall
	assert_int_equal( kcc_controller_set_mode( c, (kcc_motion_mode)7 ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_controller_get_mode( c ), KCC_MODE_FLOATING );
	assert_int_equal( kcc_controller_set_mode( NULL, KCC_MODE_GROUNDED ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_controller_set_mode( c, KCC_MODE_GROUNDED ), KCC_OK );
	assert_int_equal( kcc_controller_move( c, kcc_v2( 0.1f, -0.1f ), &r ), KCC_OK );
	assert_true( r.flags & KCC_ON_FLOOR );
#if defined( KCC_ENABLE_ASSERT )
	assert_int_equal( s_mode_asserts, 2 ); // the bad mode and the NULL controller are named
#endif
	kcc_set_assert_fcn( record_assert ); // the file's handler (main)
	kcc_controller_destroy( c );
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	cpSpaceFree( space );
}

static void count_shape( cpShape* shape, void* data )
{
	(void)shape;
	*(int*)data += 1;
}

static void count_body( cpBody* body, void* data )
{
	(void)body;
	*(int*)data += 1;
}

static void test_body_and_shape_live_in_the_space( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -5, -1, 10 );
	scene_commit( s, 0 );
	int shapes_before = 0, bodies_before = 0;
	cpSpaceEachShape( s->space, count_shape, &shapes_before );
	cpSpaceEachBody( s->space, count_body, &bodies_before );

	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		vec2s at = kcc_v2( 0.5f, 3.0f );
		kcc_controller_def def = test_character_def( kind, at );
		kcc_controller* c = kcc_controller_create( s->space, &def );
		assert_non_null( c );
		cpBody* body = kcc_controller_get_body( c );
		cpShape* shape = kcc_controller_get_shape( c );
		assert_non_null( body );
		assert_non_null( shape );
		assert_true( cpSpaceContainsBody( s->space, body ) );
		assert_true( cpSpaceContainsShape( s->space, shape ) );
		assert_true( cpBodyGetType( body ) == CP_BODY_TYPE_KINEMATIC );
		assert_ptr_equal( cpShapeGetBody( shape ), body );

		// Other queries see the character at its position, and after a move at its new position.
		cpPointQueryInfo info;
		assert_ptr_equal( cpSpacePointQueryNearest( s->space, cpv( at.x, at.y ), 0.0, CP_SHAPE_FILTER_ALL, &info ),
						  shape );
		assert_int_equal( kcc_controller_move( c, kcc_v2( 2.0f, 0.0f ), NULL ), KCC_OK );
		vec2s p = kcc_controller_get_position( c );
		assert_float_equal( p.x, at.x + 2.0f, 1e-5f );
		assert_ptr_equal( cpSpacePointQueryNearest( s->space, cpv( p.x, p.y ), 0.0, CP_SHAPE_FILTER_ALL, &info ),
						  shape );
		assert_null( cpSpacePointQueryNearest( s->space, cpv( at.x, at.y ), 0.0, CP_SHAPE_FILTER_ALL, &info ) );
		cpVect body_position = cpBodyGetPosition( body );
		assert_float_equal( (float)body_position.x, p.x, 1e-6f );
		assert_float_equal( (float)body_position.y, p.y, 1e-6f );

		int shapes_with = 0, bodies_with = 0;
		cpSpaceEachShape( s->space, count_shape, &shapes_with );
		cpSpaceEachBody( s->space, count_body, &bodies_with );
		assert_int_equal( shapes_with, shapes_before + 1 );
		assert_int_equal( bodies_with, bodies_before + 1 );

		kcc_controller_destroy( c );
		int shapes_after = 0, bodies_after = 0;
		cpSpaceEachShape( s->space, count_shape, &shapes_after );
		cpSpaceEachBody( s->space, count_body, &bodies_after );
		assert_int_equal( shapes_after, shapes_before );
		assert_int_equal( bodies_after, bodies_before );
		assert_null( cpSpacePointQueryNearest( s->space, cpv( p.x, p.y ), 0.0, CP_SHAPE_FILTER_ALL, &info ) );
	}
	// The space still steps after the controllers are gone.
	cpSpaceStep( s->space, 1.0 / 60.0 );
	scene_destroy( s );
}

// A short level used by the trajectory tests: floor, a wall, a ramp, a ceiling block.
static void build_playground( scene* s )
{
	scene_add_tile_row( s, -20, -1, 40 );
	scene_add_tile_column( s, 10, 0, 6 );
	scene_add_slope( s, kcc_v2( 2.0f, 0.0f ), 0.4f, 4.0f, 1.0f );
	scene_add_tile_row( s, -6, 3, 3 );
	scene_commit( s, 0 );
}

// Scripted input: run right and left with jumps, gravity, via move_and_slide.
static vec2s script_velocity( int step, vec2s velocity, bool on_floor )
{
	float vx = ( ( step / 90 ) % 2 == 0 ) ? 6.0f : -4.5f;
	velocity.x = vx;
	if ( on_floor && step % 47 == 0 )
	{
		velocity.y = 8.0f;
	}
	velocity.y -= 30.0f * ( 1.0f / 60.0f );
	return velocity;
}

typedef struct run_state
{
	vec2s velocity;
	bool on_floor;
} run_state;

static void run_steps( kcc_controller* c, run_state* rs, int first_step, int steps, vec2s* trajectory )
{
	for ( int i = 0; i < steps; ++i )
	{
		vec2s v = script_velocity( first_step + i, rs->velocity, rs->on_floor );
		kcc_move_result result;
		assert_int_equal( kcc_controller_move_and_slide( c, v, 1.0f / 60.0f, &rs->velocity, &result ), KCC_OK );
		rs->on_floor = ( result.flags & KCC_ON_FLOOR ) != 0;
		trajectory[i] = kcc_controller_get_position( c );
	}
}

static void test_state_snapshot_restore_round_trip( void** state )
{
	(void)state;
	enum
	{
		warmup = 100,
		steps = 300
	};
	static vec2s first[steps], second[steps], warm[warmup];
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		build_playground( s );
		kcc_controller_def def =
			test_character_def( kind, kcc_v2( -3.0f, test_character_half_height( kind ) + 0.01f + 0.5f ) );
		kcc_controller* c = kcc_controller_create( s->space, &def );
		assert_non_null( c );
		run_state rs = { kcc_v2( 0.0f, 0.0f ), false };
		run_steps( c, &rs, 0, warmup, warm );

		kcc_controller_state snapshot = kcc_controller_get_state( c );
		run_state saved = rs;
		assert_true( test_vec2_difference( snapshot.position, kcc_controller_get_position( c ) ) == 0.0f );
		assert_true( snapshot.flags == kcc_controller_get_flags( c ) );
		run_steps( c, &rs, warmup, steps, first );

		// Restoring the snapshot gives the same position, flags and then the identical trajectory.
		assert_int_equal( kcc_controller_set_state( c, &snapshot ), KCC_OK );
		assert_memory_equal( &warm[warmup - 1], &snapshot.position, sizeof( vec2s ) );
		vec2s restored = kcc_controller_get_position( c );
		assert_memory_equal( &restored, &snapshot.position, sizeof( vec2s ) );
		assert_true( kcc_controller_get_flags( c ) == snapshot.flags );
		rs = saved;
		run_steps( c, &rs, warmup, steps, second );
		assert_memory_equal( first, second, sizeof( first ) );

		// A snapshot restored into another controller (same def) continues identically too.
		kcc_controller_def other_def = def;
		other_def.position = kcc_v2( 5.0f, 2.0f );
		kcc_controller* other = kcc_controller_create( s->space, &other_def );
		assert_non_null( other );
		kcc_controller_destroy( c );
		assert_int_equal( kcc_controller_set_state( other, &snapshot ), KCC_OK );
		rs = saved;
		run_steps( other, &rs, warmup, steps, second );
		assert_memory_equal( first, second, sizeof( first ) );

		// A foreign state (no cookie) or NULL is refused and changes nothing.
		vec2s before = kcc_controller_get_position( other );
		uint32_t flags_before = kcc_controller_get_flags( other );
		kcc_controller_state foreign = snapshot;
		foreign.internal_cookie = 0;
		s_assert_count = 0;
		assert_true( kcc_controller_set_state( other, &foreign ) < 0 );
		assert_true( kcc_controller_set_state( other, NULL ) < 0 );
		kcc_controller_state nan_state = snapshot;
		nan_state.position.x = NAN;
		assert_true( kcc_controller_set_state( other, &nan_state ) < 0 );
		vec2s after = kcc_controller_get_position( other );
		assert_memory_equal( &before, &after, sizeof( vec2s ) );
		assert_true( kcc_controller_get_flags( other ) == flags_before );
		assert_true( kcc_controller_set_state( NULL, &snapshot ) < 0 );

		kcc_controller_destroy( other );
		scene_destroy( s );
	}
}

static void test_flags_and_set_position( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	build_playground( s );
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		float half = test_character_half_height( kind );
		kcc_controller_def def = test_character_def( kind, kcc_v2( -3.0f, half + 0.3f ) );
		kcc_controller* c = kcc_controller_create( s->space, &def );
		assert_non_null( c );
		kcc_move_result result;
		memset( &result, 0xAB, sizeof( result ) );
		for ( int i = 0; i < 20; ++i )
		{
			assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -0.1f ), &result ), KCC_OK );
			assert_true( result.flags == kcc_controller_get_flags( c ) );
			assert_true( kcc_controller_is_on_floor( c ) == ( ( result.flags & KCC_ON_FLOOR ) != 0 ) );
			vec2s p = kcc_controller_get_position( c );
			assert_memory_equal( &p, &result.position, sizeof( vec2s ) );
			assert_true( result.collision_count >= 0 && result.collision_count <= KCC_MAX_COLLISIONS );
			assert_true( result.sensor_count >= 0 && result.sensor_count <= KCC_MAX_SENSORS );
		}
		assert_true( kcc_controller_is_on_floor( c ) );
		assert_float_equal( result.floor_normal.x, 0.0f, 1e-5f );
		assert_float_equal( result.floor_normal.y, 1.0f, 1e-5f );
		assert_non_null( result.floor_shape );
		// out is optional.
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.05f, -0.1f ), NULL ), KCC_OK );
		assert_true( kcc_controller_is_on_floor( c ) );

		// Teleport: exact position, no cast, ground state cleared; the body follows.
		assert_int_equal( kcc_controller_set_position( c, kcc_v2( -8.0f, 7.5f ) ), KCC_OK );
		vec2s p = kcc_controller_get_position( c );
		assert_float_equal( p.x, -8.0f, 0.0f );
		assert_float_equal( p.y, 7.5f, 0.0f );
		assert_false( kcc_controller_is_on_floor( c ) );
		assert_true( ( kcc_controller_get_flags( c ) & KCC_ON_FLOOR ) == 0 );
		cpVect bp = cpBodyGetPosition( kcc_controller_get_body( c ) );
		assert_float_equal( (float)bp.x, -8.0f, 0.0f );
		assert_float_equal( (float)bp.y, 7.5f, 0.0f );
		kcc_controller_destroy( c );
	}
	// NULL controller: errors, never a crash.
	s_assert_count = 0;
	assert_int_equal( kcc_controller_move( NULL, kcc_v2( 1.0f, 0.0f ), NULL ), KCC_ERROR_NULL_ARGUMENT );
	vec2s v;
	assert_int_equal( kcc_controller_move_and_slide( NULL, kcc_v2( 1.0f, 0.0f ), 0.1f, &v, NULL ),
					  KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_controller_set_position( NULL, kcc_v2( 1.0f, 0.0f ) ), KCC_ERROR_NULL_ARGUMENT );
	scene_destroy( s );
}

// The result's path runs from the start to the end bit for bit, also when the move only turns a coordinate's -0 into
// +0 (an odd state the fuzzer found: the path kept the start alone, equal to the end but for the sign of its zero).
static void test_path_runs_from_the_start_to_the_end_bit_for_bit( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -10, -5, 20 );
	const vec2s starts[] = { { { -0.0f, -0.0f } }, { { 0.0248f, -0.0f } }, { { -0.0f, 0.0f } }, { { 0.0f, 0.0f } } };
	const vec2s deltas[] = { { { 0.0f, 0.0f } }, { { -0.0f, -0.0f } }, { { 1e-30f, 0.0f } }, { { 0.0f, -0.0f } },
							 { { 0.25f, 0.0f } }, { { 0.0f, -0.25f } } };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int i = 0; i < (int)( sizeof( starts ) / sizeof( starts[0] ) ); ++i )
		{
			for ( int j = 0; j < (int)( sizeof( deltas ) / sizeof( deltas[0] ) ); ++j )
			{
				kcc_controller_def def = test_character_def( kind, starts[i] );
				kcc_controller* c = kcc_controller_create( s->space, &def );
				assert_non_null( c );
				kcc_move_result r;
				assert_int_equal( kcc_controller_move( c, deltas[j], &r ), KCC_OK );
				vec2s end = kcc_controller_get_position( c );
				assert_true( r.path_count >= 1 && r.path_count <= KCC_MAX_PATH_POINTS );
				assert_memory_equal( &r.path[0], &starts[i], sizeof( vec2s ) );
				assert_memory_equal( &r.path[r.path_count - 1], &end, sizeof( vec2s ) );
				assert_memory_equal( &r.position, &end, sizeof( vec2s ) );
				kcc_controller_destroy( c );
			}
		}
	}
	scene_destroy( s );
}

// ---------------------------------------------------------------------------------------------------------------
// Allocation: only create and destroy may allocate.

static void test_no_heap_allocation_in_moves( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	build_playground( s );
	scene_add_circle( s, kcc_v2( -12.0f, 0.5f ), 0.5f );
	scene_add_segment( s, kcc_v2( -15.0f, 2.0f ), kcc_v2( -13.0f, 4.0f ), 0.0f );
	scene_commit( s, 0 );
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		hooks_reset();
		kcc_set_allocator( hook_alloc, hook_free, NULL );
		kcc_controller_def def = test_character_def( kind, kcc_v2( -3.0f, 2.0f ) );
		kcc_controller* c = kcc_controller_create( s->space, &def );
		assert_non_null( c );
		int allocs_after_create = s_hook_allocs;
		assert_true( allocs_after_create >= 1 );

		// Warm up once (Chipmunk may grow internal buffers on the first query of a new shape), then count.
		run_state rs = { kcc_v2( 0.0f, 0.0f ), false };
		vec2s trajectory[200];
		run_steps( c, &rs, 0, 200, trajectory );
		uint64_t before = kcc_test_allocation_count();
		for ( int round = 0; round < 20; ++round )
		{
			run_steps( c, &rs, 200 + round * 200, 200, trajectory );
			kcc_move_result result;
			assert_int_equal( kcc_controller_move( c, kcc_v2( -3.0f, 0.5f ), &result ), KCC_OK );
			assert_int_equal( kcc_controller_move( c, kcc_v2( 4.0f, -3.0f ), &result ), KCC_OK );
			kcc_controller_state snap = kcc_controller_get_state( c );
			assert_int_equal( kcc_controller_set_state( c, &snap ), KCC_OK );
			(void)kcc_controller_get_position( c );
		}
		uint64_t after = kcc_test_allocation_count();
		assert_true( after == before );           // nothing in the whole executable allocated
		assert_int_equal( s_hook_allocs, allocs_after_create ); // the hook saw only create

		kcc_controller_destroy( c );
		assert_int_equal( s_hook_frees, s_hook_allocs ); // destroy gives back everything create took
		kcc_set_allocator( NULL, NULL, NULL );
	}
	scene_destroy( s );
}

// Hooks whose blocks are only 8-byte aligned (offset bytes past malloc's): kcc2d's blocks still start on cache lines,
// and each block goes back to the hooks as the hooks gave it.
typedef struct offset_hooks
{
	size_t offset;
	int allocs, frees;
	void* given[64]; // blocks given out and not freed yet
} offset_hooks;

static void* offset_alloc( size_t size, void* user )
{
	offset_hooks* h = user;
	char* base = malloc( size + 64 );
	if ( base == NULL )
	{
		return NULL;
	}
	void* block = base + h->offset;
	for ( int i = 0; i < 64; ++i )
	{
		if ( h->given[i] == NULL )
		{
			h->given[i] = block;
			h->allocs += 1;
			return block;
		}
	}
	fail_msg( "more than 64 blocks live" );
	return NULL;
}

static void offset_free( void* memory, void* user )
{
	offset_hooks* h = user;
	bool found = false;
	for ( int i = 0; i < 64 && found == false; ++i )
	{
		if ( h->given[i] == memory )
		{
			h->given[i] = NULL;
			found = true;
		}
	}
	assert_true( found ); // a block these hooks gave, not one inside it
	h->frees += 1;
	char* base = (char*)memory - h->offset;
	free( base );
}

static void test_allocations_start_on_cache_lines( void** state )
{
	(void)state;
	const size_t offsets[3] = { 8, 24, 56 };
	for ( int k = 0; k < 3; ++k )
	{
		offset_hooks h = { offsets[k], 0, 0, { NULL } };
		kcc_set_allocator( offset_alloc, offset_free, &h );
		for ( size_t size = 0; size < 300; size += 37 )
		{
			char* memory = kcc_alloc( size );
			assert_non_null( memory );
			assert_int_equal( (uintptr_t)memory % KCC_CACHE_LINE, 0 );
			memset( memory, 0xab, size );
			kcc_free( memory );
		}
		kcc_free( NULL );
		scene* s = scene_create( 1.0f );
		build_playground( s );
		scene_commit( s, 0 );
		kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( -3.0f, 2.0f ) );
		kcc_controller* c = kcc_controller_create( s->space, &def );
		assert_non_null( c );
		assert_int_equal( (uintptr_t)c % KCC_CACHE_LINE, 0 ); // a move touches its first lines
		kcc_move_result result;
		assert_int_equal( kcc_controller_move( c, kcc_v2( 1.0f, -0.5f ), &result ), KCC_OK );
		kcc_controller_destroy( c );
		scene_destroy( s );
		assert_true( h.allocs > 0 );
		assert_int_equal( h.frees, h.allocs );
		kcc_set_allocator( NULL, NULL, NULL );
	}
}

int main( void )
{
	kcc_set_assert_fcn( record_assert );
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_default_def_values ),
		cmocka_unit_test( test_create_refuses_null_arguments ),
		cmocka_unit_test( test_create_refuses_uninitialised_def ),
		cmocka_unit_test( test_create_refuses_each_bad_field ),
		cmocka_unit_test( test_create_accepts_every_test_character ),
		cmocka_unit_test( test_destroy_null_is_a_no_op ),
		cmocka_unit_test( test_status_strings ),
		cmocka_unit_test( test_set_mode ),
		cmocka_unit_test( test_body_and_shape_live_in_the_space ),
		cmocka_unit_test( test_flags_and_set_position ),
		cmocka_unit_test( test_path_runs_from_the_start_to_the_end_bit_for_bit ),
		cmocka_unit_test( test_state_snapshot_restore_round_trip ),
		cmocka_unit_test( test_no_heap_allocation_in_moves ),
		cmocka_unit_test( test_allocations_start_on_cache_lines ),
	};
	return cmocka_run_group_tests_name( "controller_api", tests, NULL, NULL );
}
