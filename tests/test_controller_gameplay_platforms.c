// SPDX-License-Identifier: MIT
// Moving platforms as a game plays them (properties 14 and 15; issue 11's loop: 60 Hz, gravity 30, jump 13), for the
// circle, the capsule and the rounded box, with platforms moved by position and by velocity and cpSpaceStep:
// - jumping with no input off a platform moving at 3 u/s keeps 3 u/s (ADD_VELOCITY, the default), keeps only the
//   upward part of a lift's motion (ADD_UPWARD_VELOCITY), keeps nothing (DO_NOTHING); walking off hands it on too;
// - get_platform_velocity reads a platform moved by setting its position (Chipmunk's velocity is 0 there), a
//   turning one at the contact, and is zero off kinematic bodies; get_real_velocity includes the carry;
// - a character spawned (created, teleported, restored) on a lift descending at 10 u/s is on the floor on every one
//   of its first 60 frames;
// - restore + replay is bit-identical on a platform moving at (3, 1) u/s and during a drop-through of a moving
//   one-way platform;
// - bad inputs of the new getters: NULL gives zero.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "assert_recorder.h"
#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define JUMP 13.0f

#define LEVEL_CATEGORY 1u
#define ONE_WAY_CATEGORY 2u

typedef struct ride
{
	scene* s;
	cpShape* platform; // a kinematic box 6 wide, 0.5 thick
	cpBody* body;
	bool by_velocity;  // moved by cpBodySetVelocity and cpSpaceStep, else by setting its position
	vec2s velocity;    // of the platform
	float swing;       // amplitude of its swinging about its centre, rad (a period of 1.5 s)
	int frame;         // frames the platform has moved
	vec2s start;       // its position at frame 0
	kcc_controller_def def;
	kcc_controller* c;
	int kind;
} ride;

// The platform at start, a floor of tiles far below (top at -20), the character standing on the platform's middle.
static ride ride_create( int kind, vec2s start, vec2s velocity, bool by_velocity, cpBitmask platform_categories )
{
	ride w;
	memset( &w, 0, sizeof( w ) );
	w.kind = kind;
	w.s = scene_create( 1.0f );
	scene_add_tile_row( w.s, -60, -21, 120 );
	for ( int i = 0; i < w.s->count; ++i )
	{
		cpShapeSetFilter( w.s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	}
	scene_commit( w.s, 0 );
	w.platform = scene_add_body_box( w.s, start, kcc_v2( 3.0f, 0.25f ), 0.0f, 0.0f, platform_categories );
	w.body = cpShapeGetBody( w.platform );
	w.by_velocity = by_velocity;
	w.velocity = velocity;
	w.start = start;
	if ( by_velocity )
	{
		cpBodySetVelocity( w.body, cpv( velocity.x, velocity.y ) );
	}
	w.def = test_character_def( kind, kcc_v2( start.x, start.y + 0.25f + test_character_half_height( kind ) + 0.01f ) );
	w.def.one_way_categories = ONE_WAY_CATEGORY;
	return w;
}

static void ride_spawn( ride* w )
{
	w->c = kcc_controller_create( w->s->space, &w->def );
	assert_non_null( w->c );
}

static void ride_destroy( ride* w )
{
	kcc_controller_destroy( w->c );
	scene_destroy( w->s );
}

// Where the platform is after frame frames (computed from the frame number: a restored world is the same world).
static vec2s ride_platform_at( const ride* w, int frame )
{
	return kcc_v2( (float)( (double)w->start.x + (double)w->velocity.x * (double)DT * frame ),
				   (float)( (double)w->start.y + (double)w->velocity.y * (double)DT * frame ) );
}

static void ride_place( ride* w, int frame )
{
	cpBodySetAngle( w->body, (double)w->swing * sin( 2.0 * SCENE_PI * (double)DT * frame / 1.5 ) );
	scene_place_body( w->s, w->body, ride_platform_at( w, frame ) );
}

// The game moves its platform first.
static void ride_move_platform( ride* w )
{
	w->frame += 1;
	if ( w->by_velocity )
	{
		cpSpaceStep( w->s->space, DT );
	}
	else
	{
		ride_place( w, w->frame );
	}
}

// Puts the platform back where it was after frame (rollback: the game restores its world).
static void ride_restore_platform( ride* w, int frame )
{
	w->frame = frame;
	ride_place( w, frame );
}

// One frame: the platform moves, then the character (velocity.x = vx unless keep_x, gravity, move_and_slide).
static kcc_move_result ride_frame( ride* w, vec2s* velocity, float vx, bool keep_x )
{
	ride_move_platform( w );
	kcc_move_result r;
	assert_int_equal( test_gravity_step( w->c, velocity, keep_x ? velocity->x : vx, GRAVITY, DT, &r ), KCC_OK );
	kcc_shape box = scene_body_box_geometry( w->platform );
	bool one_way = ( cpShapeGetFilter( w->platform ).categories & ONE_WAY_CATEGORY ) != 0; // may be passed through
	float depth = one_way ? 0.0f : scene_depth_in( &w->def.shape, r.position, &box );
	SCENE_CHECK( depth <= 1e-3f * test_character_height( w->kind ), "%s frame %d: %g deep in the platform",
				 test_character_name( w->kind ), w->frame, (double)depth );
	return r;
}

static const char* leave_name( kcc_platform_leave leave )
{
	return leave == KCC_PLATFORM_LEAVE_ADD_VELOCITY ? "ADD_VELOCITY"
		   : leave == KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY ? "ADD_UPWARD_VELOCITY" : "DO_NOTHING";
}

// Rides 30 frames, jumps with no input (velocity.x kept, as a game with air momentum does), flies 20 frames.
// Returns the velocity move_and_slide returned in the frame that left the platform and the x flown in 20 frames.
static void jump_off( int kind, vec2s platform_velocity, bool by_velocity, kcc_platform_leave leave, vec2s* left_with,
					  float* flown_x, float* rise )
{
	ride w = ride_create( kind, kcc_v2( 0.0f, 0.0f ), platform_velocity, by_velocity, LEVEL_CATEGORY );
	w.def.platform_on_leave = leave;
	ride_spawn( &w );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < 30; ++i )
	{
		kcc_move_result r = ride_frame( &w, &velocity, 0.0f, false );
		SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) && r.floor_shape == w.platform, "%s %s frame %d: not on the platform",
					 test_character_name( kind ), leave_name( leave ), i );
	}
	velocity.y = JUMP;
	kcc_move_result r = ride_frame( &w, &velocity, 0.0f, true );
	SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) == 0, "%s: still on the platform after the jump", test_character_name( kind ) );
	*left_with = velocity;
	vec2s take_off = r.position;
	for ( int i = 0; i < 20; ++i )
	{
		r = ride_frame( &w, &velocity, 0.0f, true );
	}
	*flown_x = r.position.x - take_off.x;
	*rise = r.position.y - take_off.y;
	ride_destroy( &w );
}

static void test_jump_off_a_platform_keeps_its_velocity( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		for ( int by_velocity = 0; by_velocity < 2; ++by_velocity )
		{
			vec2s v;
			float flown, rise;
			// Sideways at 3 u/s: ADD_VELOCITY keeps 3 u/s (20 frames: 1.0 sideways); the others keep x fixed.
			jump_off( kind, kcc_v2( 3.0f, 0.0f ), by_velocity, KCC_PLATFORM_LEAVE_ADD_VELOCITY, &v, &flown, &rise );
			print_message( "%-11s %s ADD_VELOCITY: left with (%.6f, %.6f), flew %.6f in 20 frames\n", name,
						   by_velocity ? "by velocity" : "by position", (double)v.x, (double)v.y, (double)flown );
			SCENE_CHECK( fabsf( v.x - 3.0f ) <= 1e-3f, "%s ADD_VELOCITY: left with vx %.6f, the platform 3", name,
						 (double)v.x );
			SCENE_CHECK( fabsf( flown - 1.0f ) <= 2e-3f, "%s ADD_VELOCITY: flew %.6f sideways, 1.0 expected", name,
						 (double)flown );
			jump_off( kind, kcc_v2( 3.0f, 0.0f ), by_velocity, KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY, &v, &flown, &rise );
			SCENE_CHECK( v.x == 0.0f && flown == 0.0f, "%s ADD_UPWARD_VELOCITY sideways: vx %g, flew %g", name,
						 (double)v.x, (double)flown );
			jump_off( kind, kcc_v2( 3.0f, 0.0f ), by_velocity, KCC_PLATFORM_LEAVE_DO_NOTHING, &v, &flown, &rise );
			SCENE_CHECK( v.x == 0.0f && flown == 0.0f, "%s DO_NOTHING sideways: vx %g, flew %g", name, (double)v.x,
						 (double)flown );
			// A lift rising at 2 u/s and moving sideways at 3: UPWARD keeps the 2 u/s up and nothing sideways.
			float rise_plain, rise_upward;
			jump_off( kind, kcc_v2( 3.0f, 2.0f ), by_velocity, KCC_PLATFORM_LEAVE_DO_NOTHING, &v, &flown, &rise_plain );
			SCENE_CHECK( fabsf( v.y - ( JUMP - GRAVITY * DT ) ) <= 1e-4f, "%s DO_NOTHING lift: left with vy %.6f", name,
						 (double)v.y );
			jump_off( kind, kcc_v2( 3.0f, 2.0f ), by_velocity, KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY, &v, &flown,
					  &rise_upward );
			SCENE_CHECK( v.x == 0.0f && fabsf( v.y - ( JUMP - GRAVITY * DT + 2.0f ) ) <= 1e-3f,
						 "%s ADD_UPWARD_VELOCITY lift: left with (%.6f, %.6f)", name, (double)v.x, (double)v.y );
			SCENE_CHECK( fabsf( rise_upward - rise_plain - 2.0f * 20.0f * DT ) <= 2e-3f,
						 "%s ADD_UPWARD_VELOCITY lift: rose %.6f, %.6f without", name, (double)rise_upward,
						 (double)rise_plain );
			jump_off( kind, kcc_v2( 3.0f, 2.0f ), by_velocity, KCC_PLATFORM_LEAVE_ADD_VELOCITY, &v, &flown, &rise );
			SCENE_CHECK( fabsf( v.x - 3.0f ) <= 1e-3f && fabsf( v.y - ( JUMP - GRAVITY * DT + 2.0f ) ) <= 1e-3f,
						 "%s ADD_VELOCITY lift: left with (%.6f, %.6f)", name, (double)v.x, (double)v.y );
		}
	}
}

// Walking off the end of a platform moving at 3 u/s (the walk 2 u/s the same way): the frame that leaves it returns
// the walk plus the platform's 3 u/s.
static void test_walk_off_a_platform_keeps_its_velocity( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		ride w = ride_create( kind, kcc_v2( 0.0f, 0.0f ), kcc_v2( 3.0f, 0.0f ), false, LEVEL_CATEGORY );
		w.def.snap_distance = 0.0f; // off the edge the character falls at once
		ride_spawn( &w );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		bool left = false;
		for ( int i = 0; i < 200 && left == false; ++i )
		{
			kcc_move_result r = ride_frame( &w, &velocity, 2.0f, false );
			if ( ( r.flags & KCC_ON_FLOOR ) == 0 )
			{
				left = true;
				SCENE_CHECK( fabsf( velocity.x - 5.0f ) <= 1e-3f, "%s: walked off with vx %.6f, 2 + 3 expected", name,
							 (double)velocity.x );
			}
			else
			{
				SCENE_CHECK( velocity.x == 2.0f, "%s frame %d: vx %.6f on the platform", name, i, (double)velocity.x );
			}
		}
		SCENE_CHECK( left, "%s: never walked off", name );
		ride_destroy( &w );
	}
}

// A platform moved by setting its position at (3, 1) u/s: Chipmunk's velocity is 0, the controller's is (3, 1).
// A turning platform: the velocity of its surface at the contact. Zero on static ground and in the air.
static void test_platform_velocity_of_a_platform_moved_by_position( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		ride w = ride_create( kind, kcc_v2( 0.0f, 0.0f ), kcc_v2( 3.0f, 1.0f ), false, LEVEL_CATEGORY );
		ride_spawn( &w );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		float worst = 0.0f, worst_real = 0.0f;
		for ( int i = 0; i < 60; ++i )
		{
			ride_frame( &w, &velocity, 1.5f, false );
			SCENE_CHECK( cpvlength( cpBodyGetVelocity( w.body ) ) == 0.0, "%s: Chipmunk's velocity is not zero", name );
			vec2s pv = kcc_controller_get_platform_velocity( w.c );
			worst = fmaxf( worst, test_vec2_difference( pv, kcc_v2( 3.0f, 1.0f ) ) );
			vec2s real = kcc_controller_get_real_velocity( w.c );
			worst_real = fmaxf( worst_real, test_vec2_difference( real, kcc_v2( 4.5f, 1.0f ) ) );
		}
		print_message( "%-11s platform at (3, 1) by position: platform velocity off by %.3g, real velocity off by "
					   "%.3g\n", name, (double)worst, (double)worst_real );
		SCENE_CHECK( worst <= 1e-3f, "%s: platform velocity off by %g", name, (double)worst );
		SCENE_CHECK( worst_real <= 1e-3f, "%s: real velocity (walk 1.5 + carry 3, 1) off by %g", name,
					 (double)worst_real );
		// Jump: in the air the platform velocity is zero.
		velocity.y = JUMP;
		ride_frame( &w, &velocity, 0.0f, false );
		vec2s pv = kcc_controller_get_platform_velocity( w.c );
		SCENE_CHECK( pv.x == 0.0f && pv.y == 0.0f, "%s: platform velocity (%g, %g) in the air", name, (double)pv.x,
					 (double)pv.y );
		ride_destroy( &w );

		// A bar turning at 0.5 rad/s about its centre, the character 2 to the right of it: (-r w sin, r w cos) at the
		// contact, about (0, 1) u/s (the contact is at the bar's top, 0.25 above its axis: x part -0.125).
		ride t = ride_create( kind, kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 0.0f ), true, LEVEL_CATEGORY );
		t.def.position.x = 2.0f;
		cpBodySetAngularVelocity( t.body, 0.5 );
		ride_spawn( &t );
		velocity = kcc_v2( 0.0f, 0.0f );
		for ( int i = 0; i < 10; ++i )
		{
			ride_frame( &t, &velocity, 0.0f, false );
		}
		pv = kcc_controller_get_platform_velocity( t.c );
		// The contact of a flat bottom is a segment: the velocity must be the bar's somewhere along it (its ends are
		// the rounded box's two lower corners), the single point of a round bottom.
		vec2s p = kcc_controller_get_position( t.c );
		static const float radius[TEST_CHARACTER_COUNT] = { 0.4f, 0.3f, 0.05f };  // of the bottom's rounding
		static const float centre_y[TEST_CHARACTER_COUNT] = { 0.0f, -0.3f, -0.45f }; // its centre, below p
		float half_contact = kind == TEST_BOX ? 0.3f : 0.0f;
		double angle = cpBodyGetAngle( t.body );
		cpVect ends[2];
		for ( int e = 0; e < 2; ++e )
		{
			// The rounding's centre, then its radius along the bar's normal (-sin, cos) down to the bar.
			double x = p.x + ( e == 0 ? -half_contact : half_contact ) + sin( angle ) * radius[kind];
			double y = p.y + centre_y[kind] - cos( angle ) * radius[kind];
			ends[e] = cpBodyGetVelocityAtWorldPoint( t.body, cpv( x, y ) );
		}
		print_message( "%-11s turning bar: platform velocity (%.4f, %.4f), the bar's at the contact (%.4f, %.4f) to "
					   "(%.4f, %.4f)\n", name, (double)pv.x, (double)pv.y, ends[0].x, ends[0].y, ends[1].x, ends[1].y );
		SCENE_CHECK( pv.x >= fmin( ends[0].x, ends[1].x ) - 0.01 && pv.x <= fmax( ends[0].x, ends[1].x ) + 0.01 &&
						 pv.y >= fmin( ends[0].y, ends[1].y ) - 0.01 && pv.y <= fmax( ends[0].y, ends[1].y ) + 0.01,
					 "%s: turning bar's velocity (%g, %g), the bar's at the contact (%g, %g) to (%g, %g)", name,
					 (double)pv.x, (double)pv.y, ends[0].x, ends[0].y, ends[1].x, ends[1].y );
		ride_destroy( &t );

		// Static ground: zero.
		scene* s = scene_create( 1.0f );
		scene_add_tile_row( s, -10, -1, 20 );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result r;
		assert_int_equal( test_gravity_step( c, &velocity, 2.0f, GRAVITY, DT, &r ), KCC_OK );
		pv = kcc_controller_get_platform_velocity( c );
		vec2s real = kcc_controller_get_real_velocity( c );
		SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) && pv.x == 0.0f && pv.y == 0.0f, "%s: platform velocity on static ground",
					 name );
		SCENE_CHECK( fabsf( real.x - 2.0f ) <= 1e-4f && fabsf( real.y ) <= 1e-4f, "%s: real velocity (%g, %g) walking at 2",
					 name, (double)real.x, (double)real.y );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// Spawned on a lift descending at 10 u/s (by position and by velocity), by create, by a teleport and by a restored
// state: on the floor on every one of the first 60 frames (the issue saw 38 of 60 frames off it after create).
static void test_spawned_on_a_descending_lift_stays_on_it( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		for ( int by_velocity = 0; by_velocity < 2; ++by_velocity )
		{
			for ( int how = 0; how < 3; ++how )
			{
				static const char* hows[3] = { "created", "teleported", "restored" };
				ride w = ride_create( kind, kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, -10.0f ), by_velocity != 0,
									  LEVEL_CATEGORY );
				vec2s spawn = w.def.position;
				if ( how > 0 )
				{
					w.def.position = kcc_v2( 20.0f, 5.0f ); // created elsewhere, in the air
				}
				ride_spawn( &w );
				kcc_controller_state snapshot = kcc_controller_get_state( w.c );
				if ( how == 1 )
				{
					assert_int_equal( kcc_controller_set_position( w.c, spawn ), KCC_OK );
				}
				else if ( how == 2 )
				{
					// A state taken while standing there: move the character there and settle, then fly away.
					assert_int_equal( kcc_controller_set_position( w.c, spawn ), KCC_OK );
					snapshot = kcc_controller_get_state( w.c );
					assert_int_equal( kcc_controller_set_position( w.c, kcc_v2( 20.0f, 5.0f ) ), KCC_OK );
					assert_int_equal( kcc_controller_set_state( w.c, &snapshot ), KCC_OK );
				}
				vec2s velocity = kcc_v2( 0.0f, 0.0f );
				int off = 0;
				for ( int i = 0; i < 60; ++i )
				{
					kcc_move_result r = ride_frame( &w, &velocity, 0.0f, false );
					off += ( r.flags & KCC_ON_FLOOR ) && r.floor_shape == w.platform ? 0 : 1;
				}
				SCENE_CHECK( off == 0, "%s %s by %s: off the lift on %d of the first 60 frames", name, hows[how],
							 by_velocity ? "velocity" : "position", off );
				ride_destroy( &w );
			}
		}
	}
}

typedef struct frame_record
{
	vec2s position;
	vec2s velocity;
	uint32_t flags;
} frame_record;

// The input of frame i of the rollback scenarios: on the floor, walk right and left and jump now and then; in the
// air the velocity is kept (with the platform's, handed on when leaving it).
static void rollback_input( int i, vec2s* velocity, bool on_floor )
{
	if ( on_floor )
	{
		velocity->x = ( i / 20 ) % 2 == 0 ? 1.5f : -1.5f;
		if ( i == 12 || i == 100 )
		{
			velocity->y = 8.0f;
		}
	}
}

static bool same_record( frame_record a, frame_record b )
{
	return memcmp( &a.position, &b.position, sizeof( vec2s ) ) == 0 &&
		   memcmp( &a.velocity, &b.velocity, sizeof( vec2s ) ) == 0 && a.flags == b.flags;
}

// Runs frames [from, to) of the rollback scenario, recording into records[i].
static void rollback_run( ride* w, int from, int to, vec2s* velocity, frame_record* records, int drop_frame )
{
	for ( int i = from; i < to; ++i )
	{
		if ( i == drop_frame )
		{
			SCENE_CHECK( kcc_controller_drop_through( w->c ) == KCC_OK, "%s: could not drop through at frame %d",
						 test_character_name( w->kind ), i );
		}
		rollback_input( i, velocity, kcc_controller_is_on_floor( w->c ) );
		kcc_move_result r = ride_frame( w, velocity, velocity->x, true );
		records[i].position = r.position;
		records[i].velocity = *velocity;
		records[i].flags = r.flags;
	}
}

// Restore + replay: the first run records every frame and a state after each; replays from several frames (the
// state, the game's velocity and the platform put back) must give bit-identical frames. one_way: a one-way platform
// dropped through at frame 60 (states taken between drop_through and the move, and while falling through). swing:
// the platform also swings (amplitude, rad): where the character touches it matters (a flat bottom's touching
// corner changes sides).
static void rollback_scenario( int kind, vec2s platform_velocity, float swing, bool one_way )
{
	enum { FRAMES = 150 };
	const char* name = test_character_name( kind );
	ride w = ride_create( kind, kcc_v2( 0.0f, 0.0f ), platform_velocity, false,
						  one_way ? ONE_WAY_CATEGORY : LEVEL_CATEGORY );
	w.swing = swing;
	ride_spawn( &w );
	static frame_record first[FRAMES], replay[FRAMES];
	static kcc_controller_state states[FRAMES];
	static vec2s velocities[FRAMES];
	memset( first, 0, sizeof( first ) );
	int drop_frame = one_way ? 60 : -1;
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < FRAMES; ++i )
	{
		if ( i == drop_frame )
		{
			SCENE_CHECK( kcc_controller_drop_through( w.c ) == KCC_OK, "%s: could not drop through at frame %d", name,
						 i );
		}
		// The state before frame i's move (after a drop_through request).
		states[i] = kcc_controller_get_state( w.c );
		velocities[i] = velocity;
		rollback_run( &w, i, i + 1, &velocity, first, -1 );
	}
	int on_platform = 0;
	for ( int i = 0; i < FRAMES; ++i )
	{
		on_platform += ( first[i].flags & KCC_ON_FLOOR ) && first[i].position.y > ride_platform_at( &w, i + 1 ).y ? 1 : 0;
	}
	if ( one_way )
	{
		// It stood on the platform until the drop, then fell through it to the floor below.
		SCENE_CHECK( on_platform >= 25 && first[FRAMES - 1].position.y < ride_platform_at( &w, FRAMES ).y - 5.0f,
					 "%s: %d frames on the platform, never dropped through (y %.4f)", name, on_platform,
					 (double)first[FRAMES - 1].position.y );
	}
	else
	{
		SCENE_CHECK( on_platform >= 80, "%s: only %d frames on the platform", name, on_platform );
	}
	static const int restore_at[] = { 1, 13, 40, 60, 61, 63, 99, 101 };
	for ( size_t k = 0; k < sizeof( restore_at ) / sizeof( restore_at[0] ); ++k )
	{
		int from = restore_at[k];
		assert_int_equal( kcc_controller_set_state( w.c, &states[from] ), KCC_OK );
		ride_restore_platform( &w, from );
		vec2s v = velocities[from];
		// The drop request is an input: replayed when the restored state comes before it (states[60] holds it).
		rollback_run( &w, from, FRAMES, &v, replay, from < drop_frame ? drop_frame : -1 );
		for ( int i = from; i < FRAMES; ++i )
		{
			SCENE_CHECK( same_record( first[i], replay[i] ),
						 "%s%s: replay from frame %d differs at frame %d: (%.9g, %.9g) flags 0x%x, first run (%.9g, "
						 "%.9g) flags 0x%x", name, one_way ? " one-way" : "", from, i, (double)replay[i].position.x,
						 (double)replay[i].position.y, (unsigned)replay[i].flags, (double)first[i].position.x,
						 (double)first[i].position.y, (unsigned)first[i].flags );
		}
	}
	ride_destroy( &w );
}

static void test_rollback_on_a_moving_platform_is_bit_identical( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		rollback_scenario( kind, kcc_v2( 3.0f, 1.0f ), 0.0f, false );
		rollback_scenario( kind, kcc_v2( 0.0f, 0.0f ), 0.2f, false ); // swinging +-0.2 rad
	}
}

static void test_rollback_during_a_drop_through_is_bit_identical( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		rollback_scenario( kind, kcc_v2( 1.0f, 0.0f ), 0.0f, true );
	}
}

static void test_bad_inputs_of_the_platform_getters( void** state )
{
	(void)state;
	reset_asserts();
	vec2s pv = kcc_controller_get_platform_velocity( NULL );
	expect_message( "kcc_controller_get_platform_velocity", "NULL" );
	vec2s real = kcc_controller_get_real_velocity( NULL );
	expect_message( "kcc_controller_get_real_velocity", "NULL" );
	assert_true( pv.x == 0.0f && pv.y == 0.0f && real.x == 0.0f && real.y == 0.0f );
}

// A corrupted state (a NaN in the platform's pose or velocities, counts out of range, a bad shape or up) and an
// out-of-range platform_on_leave are refused; set_state changes nothing then.
static void test_bad_states_and_defs_are_refused( void** state )
{
	(void)state;
	kcc_controller_def bad_def = kcc_default_controller_def();
	bad_def.platform_on_leave = (kcc_platform_leave)7;
	const char* problem = kcc_controller_def_problem( &bad_def );
	assert_non_null( problem );
	assert_non_null( strstr( problem, "platform_on_leave" ) );

	ride w = ride_create( TEST_CAPSULE, kcc_v2( 0.0f, 0.0f ), kcc_v2( 3.0f, 1.0f ), false, LEVEL_CATEGORY );
	ride_spawn( &w );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < 5; ++i )
	{
		ride_frame( &w, &velocity, 0.0f, false );
	}
	kcc_controller_state good = kcc_controller_get_state( w.c );
	for ( int k = 0; k < 9; ++k )
	{
		kcc_controller_state bad = good;
		switch ( k )
		{
			case 0: bad.platform_position.x = NAN; break;
			case 1: bad.platform_angle = INFINITY; break;
			case 2: bad.platform_velocity.y = NAN; break;
			case 3: bad.carry_anchor.x = INFINITY; break;
			case 4: bad.zone_count = KCC_MAX_ZONES + 1; break;
			case 5: bad.support_count = -1; break;
			case 6: bad.up = kcc_v2( 0.0f, 2.0f ); break;
			case 7: bad.shape = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 1.0f, 1.0f ); break;
			default: bad.last_dt = -1.0f; break;
		}
		reset_asserts();
		kcc_status status = kcc_controller_set_state( w.c, &bad );
		SCENE_CHECK( status == KCC_ERROR_NOT_FINITE || status == KCC_ERROR_INVALID_ARGUMENT,
					 "corrupted state %d: %s", k, kcc_status_string( status ) );
		kcc_controller_state after = kcc_controller_get_state( w.c );
		SCENE_CHECK( memcmp( &good, &after, sizeof( good ) ) == 0, "corrupted state %d changed the controller", k );
	}
	ride_destroy( &w );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_jump_off_a_platform_keeps_its_velocity ),
		cmocka_unit_test( test_walk_off_a_platform_keeps_its_velocity ),
		cmocka_unit_test( test_platform_velocity_of_a_platform_moved_by_position ),
		cmocka_unit_test( test_spawned_on_a_descending_lift_stays_on_it ),
		cmocka_unit_test( test_rollback_on_a_moving_platform_is_bit_identical ),
		cmocka_unit_test( test_rollback_during_a_drop_through_is_bit_identical ),
		cmocka_unit_test( test_bad_inputs_of_the_platform_getters ),
		cmocka_unit_test( test_bad_states_and_defs_are_refused ),
	};
	return cmocka_run_group_tests_name( "controller_gameplay_platforms", tests, install_recorder, NULL );
}
