// SPDX-License-Identifier: MIT
// Quality properties 8 and 9 (DESIGN.md section 5): moving platforms (horizontal, vertical, fast, rotating, moved
// by position or by velocity and cpSpaceStep, carried into a wall, removed by the game) and one-way platforms
// (pass from below and the sides, land from above, drop through on request); for all three characters.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f

#define LEVEL_CATEGORY 1u
#define ONE_WAY_CATEGORY 2u

// ---------------------------------------------------------------------------------------------------------------
// One-way platforms

// Level shapes get their own category (Chipmunk's default filter is every category, one-way included).
static void give_level_category( scene* s )
{
	for ( int i = 0; i < s->count; ++i )
	{
		cpShapeSetFilter( s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	}
}

// A one-way box on the static body. Not part of the scene's measured shapes: passing through it is allowed.
static cpShape* add_one_way_box( scene* s, float min_x, float min_y, float max_x, float max_y )
{
	cpShape* shape = cpBoxShapeNew2( cpSpaceGetStaticBody( s->space ), cpBBNew( min_x, min_y, max_x, max_y ), 0.0 );
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, ONE_WAY_CATEGORY, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( s->space, shape );
	kcc_space_static_changed( s->space ); // a static shape added
	return shape;
}

static void remove_shape( scene* s, cpShape* shape )
{
	cpSpaceRemoveShape( s->space, shape );
	cpShapeFree( shape );
	kcc_space_static_changed( s->space ); // a static shape removed
}

typedef struct one_way_world
{
	scene* s;
	cpShape* platform;
	kcc_controller_def def;
	kcc_controller* c;
} one_way_world;

// Floor of tiles with its top at y = 0; a one-way platform x in [-3, 3], y in [2.8, 3.0]; the character standing
// on the floor at x.
static one_way_world one_way_create( int kind, float x, float platform_min_y, float platform_max_y )
{
	one_way_world w;
	w.s = scene_create( 1.0f );
	scene_add_tile_row( w.s, -20, -1, 40 );
	give_level_category( w.s );
	w.def = test_character_def( kind, kcc_v2( x, test_character_half_height( kind ) + 0.01f ) );
	w.def.one_way_categories = ONE_WAY_CATEGORY;
	w.c = scene_create_controller( w.s, &w.def );
	assert_non_null( w.c );
	w.platform = add_one_way_box( w.s, -3.0f, platform_min_y, 3.0f, platform_max_y );
	return w;
}

static void one_way_destroy( one_way_world* w )
{
	kcc_controller_destroy( w->c );
	remove_shape( w->s, w->platform );
	scene_destroy( w->s );
}

// One gravity step; checks the overlap with the level (one-way shapes excluded) and no NaN.
static kcc_move_result one_way_step( one_way_world* w, vec2s* velocity, float vx, const char* what, int step )
{
	kcc_move_result r;
	assert_int_equal( test_gravity_step( w->c, velocity, vx, GRAVITY, DT, &r ), KCC_OK );
	int kind = w->def.shape.type == KCC_SHAPE_CIRCLE ? TEST_CIRCLE : w->def.shape.type == KCC_SHAPE_CAPSULE ? TEST_CAPSULE : TEST_BOX;
	float depth = scene_overlap( w->s, &w->def.shape, r.position );
	SCENE_CHECK( kcc_is_valid_vec2( r.position ), "%s step %d: position not finite", what, step );
	SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s step %d: overlap %g with the level", what, step,
				 (double)depth );
	return r;
}

// Falls (or stands) until ON_FLOOR is reported for 30 steps in a row with no motion; returns the final result.
static kcc_move_result one_way_settle( one_way_world* w, vec2s* velocity, const char* what )
{
	kcc_move_result r = { 0 };
	int quiet = 0;
	for ( int step = 0; step < 600 && quiet < 30; ++step )
	{
		vec2s before = kcc_controller_get_position( w->c );
		r = one_way_step( w, velocity, 0.0f, what, step );
		bool still = test_vec2_difference( before, r.position ) == 0.0f;
		quiet = ( r.flags & KCC_ON_FLOOR ) != 0 && still ? quiet + 1 : 0;
	}
	SCENE_CHECK( quiet >= 30, "%s: never came to rest on a floor", what );
	return r;
}

static void test_one_way_jump_up_through_and_land( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		one_way_world w = one_way_create( kind, 0.5f, 2.8f, 3.0f );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		one_way_settle( &w, &velocity, name );
		float half = test_character_half_height( kind );
		// Jump: 16 u/s under 30 u/s^2 rises 4.27, the bottom clears the top (3.0) by more than a unit.
		velocity = kcc_v2( 0.0f, 16.0f );
		float highest_bottom = -FLT_MAX;
		bool inside_seen = false;
		for ( int step = 0; step < 40; ++step )
		{
			kcc_move_result r = one_way_step( &w, &velocity, 0.0f, name, step );
			float bottom = r.position.y - half;
			highest_bottom = bottom > highest_bottom ? bottom : highest_bottom;
			inside_seen = inside_seen || ( r.position.y + half > 2.8f && bottom < 3.0f );
			SCENE_CHECK( ( r.flags & KCC_ON_CEILING ) == 0, "%s step %d: the platform's underside blocked", name, step );
			if ( velocity.y < 0.0f )
			{
				break;
			}
		}
		SCENE_CHECK( inside_seen, "%s: never passed through the platform", name );
		SCENE_CHECK( highest_bottom > 3.5f, "%s: the jump stopped at %g", name, (double)highest_bottom );
		kcc_move_result r = one_way_settle( &w, &velocity, name );
		float gap = r.position.y - half - 3.0f;
		SCENE_CHECK( gap >= 0.0f && gap <= 2.0f * w.def.skin, "%s: landed with gap %g above the one-way top", name,
					 (double)gap );
		SCENE_CHECK( r.floor_shape == w.platform, "%s: floor is not the one-way platform", name );
		one_way_destroy( &w );
	}
}

static void test_one_way_walk_through_from_the_side( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		// A thin platform across the character's middle, 0.3 .. 0.5 above the floor.
		float half = test_character_half_height( kind );
		one_way_world w = one_way_create( kind, -6.0f, half - 0.1f, half + 0.1f );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		one_way_settle( &w, &velocity, name );
		vec2s start = kcc_controller_get_position( w.c );
		const float speed = 6.0f;
		int steps = 120; // 12 units: through the whole platform and out the other side
		for ( int step = 0; step < steps; ++step )
		{
			kcc_move_result r = one_way_step( &w, &velocity, speed, name, step );
			SCENE_CHECK( ( r.flags & ( KCC_ON_WALL | KCC_ON_CEILING ) ) == 0, "%s step %d: blocked by the one-way side",
						 name, step );
			SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) != 0, "%s step %d: left the floor", name, step );
			SCENE_CHECK( fabsf( r.position.y - start.y ) <= 1e-4f, "%s step %d: pushed up to %g", name, step,
						 (double)r.position.y );
		}
		float covered = kcc_controller_get_position( w.c ).x - start.x;
		SCENE_CHECK( fabsf( covered - speed * DT * (float)steps ) <= 1e-3f, "%s: covered %g of %g", name,
					 (double)covered, (double)( speed * DT * (float)steps ) );
		one_way_destroy( &w );
	}
}

static void test_one_way_fall_onto_and_stand( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		one_way_world w = one_way_create( kind, 0.5f, 2.8f, 3.0f );
		float half = test_character_half_height( kind );
		assert_int_equal( kcc_controller_set_position( w.c, kcc_v2( 0.5f, 5.0f + half ) ), KCC_OK );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result r = one_way_settle( &w, &velocity, name );
		vec2s rest = r.position;
		float gap = rest.y - half - 3.0f;
		SCENE_CHECK( gap >= 0.0f && gap <= 2.0f * w.def.skin, "%s: rests with gap %g", name, (double)gap );
		// Standing 300 frames: on the floor every frame, not a bit of drift.
		for ( int step = 0; step < 300; ++step )
		{
			r = one_way_step( &w, &velocity, 0.0f, name, step );
			SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) != 0 && r.floor_shape == w.platform, "%s step %d: not on the platform",
						 name, step );
			SCENE_CHECK( test_vec2_difference( r.position, rest ) == 0.0f, "%s step %d: drifted to (%g, %g)", name, step,
						 (double)r.position.x, (double)r.position.y );
		}
		one_way_destroy( &w );
	}
}

static void test_one_way_drop_through( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		one_way_world w = one_way_create( kind, 0.5f, 2.8f, 3.0f );
		float half = test_character_half_height( kind );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		// On the static floor: nothing to drop through.
		one_way_settle( &w, &velocity, name );
		SCENE_CHECK( kcc_controller_drop_through( w.c ) == KCC_ERROR_NOT_ON_ONE_WAY, "%s: dropped through a solid floor",
					 name );
		vec2s on_ground = kcc_controller_get_position( w.c );
		kcc_move_result r = one_way_step( &w, &velocity, 0.0f, name, 0 );
		SCENE_CHECK( test_vec2_difference( r.position, on_ground ) == 0.0f, "%s: moved after a refused drop", name );

		// Onto the platform, then drop through on request, down to the floor.
		assert_int_equal( kcc_controller_set_position( w.c, kcc_v2( 0.5f, 3.5f + half ) ), KCC_OK );
		SCENE_CHECK( kcc_controller_drop_through( w.c ) == KCC_ERROR_NOT_ON_ONE_WAY, "%s: dropped while in the air", name );
		one_way_settle( &w, &velocity, name );
		SCENE_CHECK( kcc_controller_get_position( w.c ).y > 3.0f + half, "%s: not on the platform", name );
		SCENE_CHECK( kcc_controller_drop_through( w.c ) == KCC_OK, "%s: drop through refused on the platform", name );
		r = one_way_settle( &w, &velocity, name );
		float gap = r.position.y - half;
		SCENE_CHECK( gap >= 0.0f && gap <= 2.0f * w.def.skin, "%s: after dropping rests %g above the floor", name,
					 (double)gap );
		SCENE_CHECK( r.floor_shape != w.platform, "%s: still on the platform", name );

		// The drop is over: jumping up through the platform lands on it again.
		velocity = kcc_v2( 0.0f, 16.0f );
		for ( int step = 0; step < 20; ++step )
		{
			one_way_step( &w, &velocity, 0.0f, name, step );
		}
		r = one_way_settle( &w, &velocity, name );
		SCENE_CHECK( r.floor_shape == w.platform && r.position.y > 3.0f + half, "%s: did not land on the platform again",
					 name );
		one_way_destroy( &w );
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Moving platforms

typedef struct platform_world
{
	scene* s;
	cpBody* body;
	cpShape* shape;
	vec2s half_extents;
	kcc_controller_def def;
	kcc_controller* c;
	int kind;
} platform_world;

// A kinematic box platform (half extents hx, hy) at position p; a static floor far below (top at y = -10).
static platform_world platform_create( int kind, vec2s p, float hx, float hy, vec2s offset )
{
	platform_world w;
	w.kind = kind;
	w.s = scene_create( 1.0f );
	scene_add_tile_row( w.s, -60, -11, 120 );
	w.body = cpBodyNewKinematic();
	cpBodySetPosition( w.body, cpv( p.x, p.y ) );
	cpSpaceAddBody( w.s->space, w.body );
	w.shape = cpBoxShapeNew( w.body, 2.0 * hx, 2.0 * hy, 0.0 );
	cpSpaceAddShape( w.s->space, w.shape );
	w.half_extents = kcc_v2( hx, hy );
	float half = test_character_half_height( kind );
	w.def = test_character_def( kind, kcc_v2( p.x + offset.x, p.y + hy + half + 0.01f ) );
	w.c = scene_create_controller( w.s, &w.def );
	assert_non_null( w.c );
	return w;
}

static void platform_remove( platform_world* w )
{
	if ( w->body != NULL )
	{
		cpSpaceRemoveShape( w->s->space, w->shape );
		cpSpaceRemoveBody( w->s->space, w->body );
		cpShapeFree( w->shape );
		cpBodyFree( w->body );
		w->body = NULL;
		w->shape = NULL;
	}
}

static void platform_destroy( platform_world* w )
{
	kcc_controller_destroy( w->c );
	platform_remove( w );
	scene_destroy( w->s );
}

// The platform's box in world coordinates, for an independent overlap measure.
static kcc_shape platform_geometry( const platform_world* w )
{
	cpVect p = cpBodyGetPosition( w->body );
	double a = cpBodyGetAngle( w->body );
	vec2s corners[4];
	const float sx[4] = { -1.0f, 1.0f, 1.0f, -1.0f };
	const float sy[4] = { -1.0f, -1.0f, 1.0f, 1.0f };
	for ( int i = 0; i < 4; ++i )
	{
		double x = sx[i] * w->half_extents.x, y = sy[i] * w->half_extents.y;
		corners[i] = kcc_v2( (float)( p.x + cos( a ) * x - sin( a ) * y ), (float)( p.y + sin( a ) * x + cos( a ) * y ) );
	}
	return kcc_make_polygon( corners, 4, 0.0f );
}

// Overlap of the character with the platform or the level.
static float platform_overlap( platform_world* w, vec2s position )
{
	float depth = scene_overlap( w->s, &w->def.shape, position );
	if ( w->body != NULL )
	{
		kcc_shape box = platform_geometry( w );
		kcc_shape placed = kcc_shape_translate( &w->def.shape, position );
		kcc_penetration_output pen = kcc_penetration( &placed, &box );
		if ( pen.overlapping && pen.depth > depth )
		{
			depth = pen.depth;
		}
	}
	return depth;
}

// Moves the platform to (p, angle) as a game does it by position: set and reindex.
static void platform_place( platform_world* w, vec2s p, float angle )
{
	cpBodySetPosition( w->body, cpv( p.x, p.y ) );
	cpBodySetAngle( w->body, angle );
	cpSpaceReindexShapesForBody( w->s->space, w->body );
}

// The character's position in the platform's frame.
static vec2s platform_local( const platform_world* w, vec2s position )
{
	cpVect local = cpBodyWorldToLocal( w->body, cpv( position.x, position.y ) );
	return kcc_v2( (float)local.x, (float)local.y );
}

// One character step on the platform: gravity, checks ON_FLOOR and the overlap.
static kcc_move_result platform_step( platform_world* w, vec2s* velocity, const char* what, int step )
{
	kcc_move_result r;
	assert_int_equal( test_gravity_step( w->c, velocity, 0.0f, GRAVITY, DT, &r ), KCC_OK );
	const char* name = test_character_name( w->kind );
	float depth = platform_overlap( w, r.position );
	SCENE_CHECK( depth <= 1e-3f * test_character_height( w->kind ), "%s %s step %d: overlap %g", name, what, step,
				 (double)depth );
	SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) != 0 && r.floor_shape == w->shape, "%s %s step %d: not on the platform",
				 name, what, step );
	return r;
}

// Horizontal sine motion (amplitude 3, 1.5 s period), by position or by velocity and cpSpaceStep: the character's
// offset on the platform stays put.
static void ride_horizontal( bool by_velocity )
{
	const char* what = by_velocity ? "horizontal (velocity + cpSpaceStep)" : "horizontal (position)";
	const float amplitude = 3.0f, omega = 2.0f * SCENE_PI / 1.5f;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		platform_world w = platform_create( kind, kcc_v2( 0.0f, 0.0f ), 2.0f, 0.25f, kcc_v2( 0.7f, 0.0f ) );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		for ( int step = 0; step < 10; ++step )
		{
			platform_step( &w, &velocity, what, step ); // settle on the resting platform
		}
		vec2s offset = platform_local( &w, kcc_controller_get_position( w.c ) );
		float worst = 0.0f;
		for ( int step = 1; step <= 300; ++step )
		{
			double t = step * (double)DT;
			if ( by_velocity )
			{
				// The velocity that takes the platform from x(t - dt) to x(t) exactly on average over the step.
				double x0 = amplitude * sin( omega * ( t - DT ) ), x1 = amplitude * sin( omega * t );
				cpBodySetVelocity( w.body, cpv( ( x1 - x0 ) / DT, 0.0 ) );
				cpSpaceStep( w.s->space, DT );
			}
			else
			{
				platform_place( &w, kcc_v2( amplitude * (float)sin( omega * t ), 0.0f ), 0.0f );
			}
			kcc_move_result r = platform_step( &w, &velocity, what, step );
			float drift = test_vec2_difference( platform_local( &w, r.position ), offset );
			worst = drift > worst ? drift : worst;
		}
		print_message( "%s %s: worst offset drift %g over 300 frames\n", test_character_name( kind ), what, (double)worst );
		SCENE_CHECK( worst < 1e-4f, "%s %s: offset drifted by %g", test_character_name( kind ), what, (double)worst );
		platform_destroy( &w );
	}
}

static void test_ride_horizontal_by_position( void** state )
{
	(void)state;
	ride_horizontal( false );
}

static void test_ride_horizontal_by_velocity( void** state )
{
	(void)state;
	ride_horizontal( true );
}

// Up and down at up to 10 u/s (amplitude 2, omega 5): never falls through, never sinks in, never lifts off.
static void test_ride_vertical( void** state )
{
	(void)state;
	const float amplitude = 2.0f, omega = 5.0f;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int by_velocity = 0; by_velocity < 2; ++by_velocity )
		{
			const char* what = by_velocity ? "vertical (velocity)" : "vertical (position)";
			platform_world w = platform_create( kind, kcc_v2( 0.0f, 0.0f ), 2.0f, 0.25f, kcc_v2( -0.4f, 0.0f ) );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			platform_step( &w, &velocity, what, 0 );
			vec2s offset = platform_local( &w, kcc_controller_get_position( w.c ) );
			float worst = 0.0f;
			for ( int step = 1; step <= 300; ++step )
			{
				double t = step * (double)DT;
				if ( by_velocity )
				{
					double y0 = amplitude * sin( omega * ( t - DT ) ), y1 = amplitude * sin( omega * t );
					cpBodySetVelocity( w.body, cpv( 0.0, ( y1 - y0 ) / DT ) );
					cpSpaceStep( w.s->space, DT );
				}
				else
				{
					platform_place( &w, kcc_v2( 0.0f, amplitude * (float)sin( omega * t ) ), 0.0f );
				}
				kcc_move_result r = platform_step( &w, &velocity, what, step );
				float drift = test_vec2_difference( platform_local( &w, r.position ), offset );
				worst = drift > worst ? drift : worst;
			}
			print_message( "%s %s: worst offset drift %g\n", test_character_name( kind ), what, (double)worst );
			SCENE_CHECK( worst < 1e-4f, "%s %s: offset drifted by %g", test_character_name( kind ), what, (double)worst );
			platform_destroy( &w );
		}
	}
}

// A platform of the given width placed from x = -30 to the right by per_step each step, steps times; the
// character starts at offset from its centre and must keep that offset (by position, no velocity).
static void ride_straight( const char* what, float width, vec2s offset_from_center, int steps, float per_step )
{
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		platform_world w = platform_create( kind, kcc_v2( -30.0f, 0.0f ), width, 0.25f, offset_from_center );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		platform_step( &w, &velocity, what, 0 );
		vec2s offset = platform_local( &w, kcc_controller_get_position( w.c ) );
		float worst = 0.0f;
		for ( int step = 1; step <= steps; ++step )
		{
			platform_place( &w, kcc_v2( -30.0f + per_step * (float)step, 0.0f ), 0.0f );
			kcc_move_result r = platform_step( &w, &velocity, what, step );
			float drift = test_vec2_difference( platform_local( &w, r.position ), offset );
			worst = drift > worst ? drift : worst;
		}
		print_message( "%s %s: worst offset drift %g\n", test_character_name( kind ), what, (double)worst );
		SCENE_CHECK( worst < 1e-4f, "%s %s: offset drifted by %g", test_character_name( kind ), what, (double)worst );
		platform_destroy( &w );
	}
}

// 30 u/s to the right for two seconds (x from -30 to 30), by position.
static void test_ride_fast( void** state )
{
	(void)state;
	ride_straight( "fast", 2.0f, kcc_v2( 0.5f, 0.0f ), 120, 30.0f * DT );
}

// 150 u/s (2.5 units a frame) on a platform 1 unit wide: it moves farther than the character's size between two
// moves, out of the region the carry first looks in; the body is then found among the space's bodies.
static void test_ride_very_fast( void** state )
{
	(void)state;
	ride_straight( "very fast", 0.5f, kcc_v2( 0.1f, 0.0f ), 24, 2.5f );
}

// Centres of the character's bottom roundings (relative to its position): a circle's centre, a capsule's lower end
// point, a rounded box's two lower corners. A turning platform carries the touching one rigidly: its contact with
// the platform stays put on the platform.
static int bottom_rounding_centres( int kind, vec2s* out )
{
	if ( kind == TEST_CIRCLE )
	{
		out[0] = kcc_v2( 0.0f, 0.0f );
		return 1;
	}
	if ( kind == TEST_CAPSULE )
	{
		out[0] = kcc_v2( 0.0f, -0.3f );
		return 1;
	}
	out[0] = kcc_v2( -0.3f, -0.45f );
	out[1] = kcc_v2( 0.3f, -0.45f );
	return 2;
}

// A long bar swinging +-15 degrees about its centre: the character, 2.5 from the centre, goes round with it; the
// touching rounding centre keeps its place in the bar's frame.
static void test_ride_rotating( void** state )
{
	(void)state;
	const float amplitude = 15.0f * SCENE_PI / 180.0f, omega = 2.0f;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		platform_world w = platform_create( kind, kcc_v2( 0.0f, 0.0f ), 4.0f, 0.25f, kcc_v2( 2.5f, 0.0f ) );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		platform_step( &w, &velocity, "rotating", 0 );
		vec2s centres[2], initial[2];
		int count = bottom_rounding_centres( kind, centres );
		vec2s p0 = kcc_controller_get_position( w.c );
		for ( int k = 0; k < count; ++k )
		{
			initial[k] = platform_local( &w, glms_vec2_add( p0, centres[k] ) );
		}
		float worst = 0.0f;
		float lowest = FLT_MAX, highest = -FLT_MAX;
		for ( int step = 1; step <= 300; ++step )
		{
			platform_place( &w, kcc_v2( 0.0f, 0.0f ), amplitude * (float)sin( omega * step * (double)DT ) );
			kcc_move_result r = platform_step( &w, &velocity, "rotating", step );
			vec2s local[2];
			float nearest = FLT_MAX;
			for ( int k = 0; k < count; ++k )
			{
				local[k] = platform_local( &w, glms_vec2_add( r.position, centres[k] ) );
				nearest = local[k].y < nearest ? local[k].y : nearest;
			}
			for ( int k = 0; k < count; ++k )
			{
				if ( local[k].y <= nearest + 1e-4f )
				{
					float drift = fabsf( local[k].x - initial[k].x );
					worst = drift > worst ? drift : worst;
				}
			}
			lowest = r.position.y < lowest ? r.position.y : lowest;
			highest = r.position.y > highest ? r.position.y : highest;
		}
		print_message( "%s rotating: worst drift of the touching rounding centre in the bar's frame %g, height range %g\n",
					   test_character_name( kind ), (double)worst, (double)( highest - lowest ) );
		// 2.5 from the centre, +-15 degrees: the character rises and falls by about 2 * 2.5 * sin(15) = 1.29.
		SCENE_CHECK( highest - lowest > 1.2f, "%s rotating: not carried round (height range %g)",
					 test_character_name( kind ), (double)( highest - lowest ) );
		SCENE_CHECK( worst < 1e-4f, "%s rotating: the touching point drifted by %g on the bar", test_character_name( kind ),
					 (double)worst );
		platform_destroy( &w );
	}
}

// A one-way bar swinging fast (+-0.5 rad at 10 rad/s: up to 0.08 rad a frame): the carry keeps the touching point on
// the bar, and the bar's turn tilts the rest of a flat bottom into it. A character that stood on the bar is pushed
// back on top: it never ends a move sunk into the bar it rode (unless reported crushed).
static void test_ride_a_fast_turning_one_way_bar( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		platform_world w = platform_create( kind, kcc_v2( 0.0f, 0.0f ), 4.0f, 0.25f, kcc_v2( 1.5f, 0.0f ) );
		kcc_controller_destroy( w.c );
		give_level_category( w.s );
		cpShapeSetFilter( w.shape, cpShapeFilterNew( CP_NO_GROUP, ONE_WAY_CATEGORY, CP_ALL_CATEGORIES ) );
		w.def.one_way_categories = ONE_WAY_CATEGORY;
		w.c = scene_create_controller( w.s, &w.def );
		assert_non_null( w.c );
		float height = test_character_height( kind );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		bool rode = false;
		int riding_frames = 0;
		float deepest = 0.0f;
		for ( int step = 1; step <= 120; ++step )
		{
			platform_place( &w, kcc_v2( 0.0f, 0.0f ), 0.5f * (float)sin( 10.0 * step * (double)DT ) );
			kcc_move_result r;
			assert_int_equal( test_gravity_step( w.c, &velocity, 0.0f, GRAVITY, DT, &r ), KCC_OK );
			kcc_shape bar = platform_geometry( &w );
			float depth = scene_depth_in( &w.def.shape, r.position, &bar );
			if ( rode && ( r.flags & KCC_CRUSHED ) == 0 )
			{
				deepest = fmaxf( deepest, depth );
				SCENE_CHECK( depth <= 1e-3f * height, "%s step %d: %g sunk into the one-way bar it rode", name, step,
							 (double)depth );
			}
			rode = ( r.flags & KCC_ON_FLOOR ) != 0 && r.floor_shape == w.shape;
			riding_frames += rode;
		}
		print_message( "%s on a fast-turning one-way bar: on it %d of 120 frames, deepest %g\n", name, riding_frames,
					   (double)deepest );
		SCENE_CHECK( riding_frames >= 60, "%s: rode the bar only %d frames", name, riding_frames );
		platform_destroy( &w );
	}
}

// The carry is a cast: a static wall above the platform's path stops the character; the platform slides on under
// the wall and the character falls off its end.
static void test_carried_into_a_wall( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		platform_world w = platform_create( kind, kcc_v2( 0.0f, 0.0f ), 2.0f, 0.25f, kcc_v2( 0.0f, 0.0f ) );
		// The wall's bottom is 0.3 above the platform's top: the platform passes under it, the character cannot.
		scene_add_box( w.s, 3.0f, 0.55f, 4.0f, 6.0f );
		scene_commit( w.s, 0 );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		platform_step( &w, &velocity, "wall", 0 );
		float limit = 3.0f - test_character_half_width( kind );
		bool stopped = false;
		for ( int step = 1; step <= 180; ++step )
		{
			platform_place( &w, kcc_v2( 5.0f * (float)step * DT, 0.0f ), 0.0f );
			kcc_move_result r;
			assert_int_equal( test_gravity_step( w.c, &velocity, 0.0f, GRAVITY, DT, &r ), KCC_OK );
			float depth = platform_overlap( &w, r.position );
			SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s wall step %d: overlap %g", name, step,
						 (double)depth );
			SCENE_CHECK( r.position.x <= limit, "%s wall step %d: carried through the wall to x = %g", name, step,
						 (double)r.position.x );
			stopped = stopped || r.position.x > limit - 0.05f;
		}
		SCENE_CHECK( stopped, "%s: never reached the wall", name );
		SCENE_CHECK( kcc_controller_get_position( w.c ).y < -1.0f, "%s: did not fall off the platform's end", name );
		platform_destroy( &w );
	}
}

// A lift rising at 6 u/s into a ceiling, solid or one-way: the character rides it up, and the move that squeezes it
// between the two reports KCC_CRUSHED. Every frame it is either clear of the ceiling and the lift or reported
// crushed; a one-way lift, once the character was crushed, may pass through it (from below, as one-way shapes do),
// never before: it must not silently swallow the character it carries.
static void test_lift_squeezes_into_a_ceiling( void** state )
{
	(void)state;
	const float speed = 6.0f, climb = 0.5f;
	for ( int run = 0; run < 2 * TEST_CHARACTER_COUNT; ++run )
	{
		int kind = run % TEST_CHARACTER_COUNT;
		bool one_way = run >= TEST_CHARACTER_COUNT;
		const char* name = test_character_name( kind );
		const char* lift = one_way ? "one-way lift" : "solid lift";
		platform_world w = platform_create( kind, kcc_v2( 0.0f, 0.0f ), 2.0f, 0.25f, kcc_v2( 0.0f, 0.0f ) );
		kcc_controller_destroy( w.c );
		float height = test_character_height( kind );
		float ceiling = 0.25f + height + climb; // its bottom: the character meets it after the climb
		scene_add_box( w.s, -3.0f, ceiling, 3.0f, ceiling + 1.0f );
		give_level_category( w.s );
		cpShapeSetFilter( w.shape, cpShapeFilterNew( CP_NO_GROUP, one_way ? ONE_WAY_CATEGORY : LEVEL_CATEGORY,
													 CP_ALL_CATEGORIES ) );
		w.def.one_way_categories = ONE_WAY_CATEGORY;
		w.c = scene_create_controller( w.s, &w.def );
		assert_non_null( w.c );
		kcc_shape placed_lift;
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		int crushed = 0, first_crushed = -1;
		for ( int step = 1; step <= 60; ++step )
		{
			// Up until the lift's top is at the ceiling, then it stays there.
			platform_place( &w, kcc_v2( 0.0f, fminf( speed * (float)step * DT, ceiling - 0.25f ) ), 0.0f );
			kcc_move_result r;
			assert_int_equal( test_gravity_step( w.c, &velocity, 0.0f, GRAVITY, DT, &r ), KCC_OK );
			if ( r.flags & KCC_CRUSHED )
			{
				crushed += 1;
				first_crushed = first_crushed < 0 ? step : first_crushed;
				continue;
			}
			float in_ceiling = scene_overlap( w.s, &w.def.shape, r.position );
			placed_lift = platform_geometry( &w );
			float in_lift = scene_depth_in( &w.def.shape, r.position, &placed_lift );
			SCENE_CHECK( in_ceiling <= 1e-3f * height, "%s %s step %d: %g inside the ceiling, not reported crushed",
						 name, lift, step, (double)in_ceiling );
			SCENE_CHECK( in_lift <= 1e-3f * height || ( one_way && first_crushed > 0 ),
						 "%s %s step %d: %g inside the lift, not reported crushed", name, lift, step, (double)in_lift );
		}
		print_message( "%s %s: crushed from frame %d, %d frames\n", name, lift, first_crushed, crushed );
		// It meets the ceiling once the lift climbed by the gap (less a skin): riding until then.
		int meets = (int)floorf( ( climb - w.def.skin ) / ( speed * DT ) );
		SCENE_CHECK( first_crushed >= meets, "%s %s: crushed at frame %d, before meeting the ceiling (%d)", name,
					 lift, first_crushed, meets );
		SCENE_CHECK( crushed > 0, "%s %s: squeezed against the ceiling, never reported", name, lift );
		platform_destroy( &w );
	}
}

// The game removes and frees the platform between two frames: nothing reads it (ASan), the character falls.
static void test_platform_removed( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		platform_world w = platform_create( kind, kcc_v2( 0.0f, 0.0f ), 2.0f, 0.25f, kcc_v2( 0.0f, 0.0f ) );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		for ( int step = 1; step <= 20; ++step )
		{
			platform_place( &w, kcc_v2( 2.0f * (float)step * DT, 0.0f ), 0.0f );
			platform_step( &w, &velocity, "before removal", step );
		}
		platform_remove( &w );
		float y0 = kcc_controller_get_position( w.c ).y;
		kcc_move_result r = { 0 };
		for ( int step = 0; step < 120; ++step )
		{
			assert_int_equal( test_gravity_step( w.c, &velocity, 0.0f, GRAVITY, DT, &r ), KCC_OK );
			SCENE_CHECK( kcc_is_valid_vec2( r.position ), "%s: position not finite", name );
			if ( step == 0 )
			{
				SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) == 0 && r.position.y < y0, "%s: did not start falling", name );
			}
		}
		float gap = r.position.y - test_character_half_height( kind ) + 10.0f;
		SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) != 0 && gap >= 0.0f && gap <= 2.0f * w.def.skin,
					 "%s: did not land on the floor below (gap %g)", name, (double)gap );
		platform_destroy( &w );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_one_way_jump_up_through_and_land ),
		cmocka_unit_test( test_one_way_walk_through_from_the_side ),
		cmocka_unit_test( test_one_way_fall_onto_and_stand ),
		cmocka_unit_test( test_one_way_drop_through ),
		cmocka_unit_test( test_ride_horizontal_by_position ),
		cmocka_unit_test( test_ride_horizontal_by_velocity ),
		cmocka_unit_test( test_ride_vertical ),
		cmocka_unit_test( test_ride_fast ),
		cmocka_unit_test( test_ride_very_fast ),
		cmocka_unit_test( test_ride_rotating ),
		cmocka_unit_test( test_ride_a_fast_turning_one_way_bar ),
		cmocka_unit_test( test_carried_into_a_wall ),
		cmocka_unit_test( test_lift_squeezes_into_a_ceiling ),
		cmocka_unit_test( test_platform_removed ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_platforms", tests, NULL, NULL );
}
