// SPDX-License-Identifier: MIT
// Pushing (property 16) and characters meeting characters, for the circle, the capsule and the rounded box walking
// at 6 u/s under gravity 30 (60 Hz):
// - a pushable box (kinematic, pushable_categories) moves with the character frame by frame, keeps its height, stops
//   a skin from the wall; the character stays a skin from the box; the velocity keeps the walk while the box moves
//   and is zero once it is stopped; a row of three boxes is pushed as one and stops the same way; a box already at
//   the wall does not move and blocks like a wall;
// - a dynamic body receives the impulse of an inelastic contact with a character of def.mass (top-down, central:
//   the body's velocity becomes v M / (M + m)), none with def.mass 0 (a plain obstacle);
// - two characters walking into each other stop a skin or two apart without jitter; one standing on another is
//   carried by it;
// - no heap allocation in a move that pushes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define WALK 6.0f

#define LEVEL_CATEGORY 1u
#define PUSHABLE_CATEGORY 4u
#define CHARACTER_CATEGORY 8u
#define WALL_X 8.0f

// Floor of tiles (top at 0) from x = -10, a wall from x = WALL_X; every level shape in LEVEL_CATEGORY.
static scene* push_level( void )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -10, -1, 25 );
	scene_add_box( s, WALL_X, -1.0f, WALL_X + 2.0f, 4.0f );
	for ( int i = 0; i < s->count; ++i )
	{
		cpShapeSetFilter( s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	}
	return s;
}

static kcc_controller_def push_def( int kind )
{
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
	def.pushable_categories = PUSHABLE_CATEGORY;
	def.filter = cpShapeFilterNew( CP_NO_GROUP, CHARACTER_CATEGORY, CP_ALL_CATEGORIES );
	return def;
}

// Pushable boxes 0.8 wide and 0.8 tall resting a skin above the floor, the first at x = first, each next one
// spacing farther.
static int add_boxes( scene* s, cpShape** boxes, int count, float first, float spacing )
{
	for ( int i = 0; i < count; ++i )
	{
		boxes[i] = scene_add_body_box( s, kcc_v2( first + spacing * (float)i, 0.41f ), kcc_v2( 0.4f, 0.4f ), 0.0f, 0.0f,
									   PUSHABLE_CATEGORY );
	}
	return count;
}

typedef struct push_figures
{
	int pushing_frames;       // frames with KCC_PUSHED whose box moved
	float worst_follow;       // largest |box dx - character dx| over the frames the first box moved
	float worst_height;       // largest change of a box's height
	float worst_gap_box;      // largest |gap character-box - skin| while pushing
	float least_gap_box;      // smallest gap character-box
	float wall_gap;           // gap from the last box to the wall at the end
	float box_gaps[3];        // gaps between consecutive boxes at the end (count - 1)
	float final_vx;           // velocity.x returned in the last frame
	float lowest_pushing_vx;  // smallest velocity.x returned while a box moved
	float deepest;            // largest overlap of the character with the level or a box
	uint64_t allocations;     // during the frames
} push_figures;

static push_figures push_run( int kind, int count, float first, float spacing, int frames )
{
	push_figures f;
	memset( &f, 0, sizeof( f ) );
	f.least_gap_box = FLT_MAX;
	f.lowest_pushing_vx = FLT_MAX;
	scene* s = push_level();
	cpShape* boxes[3];
	kcc_controller_def def = push_def( kind );
	kcc_controller* c = scene_create_controller( s, &def );
	assert_non_null( c );
	add_boxes( s, boxes, count, first, spacing );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	const char* name = test_character_name( kind );
	bool was_pushing = false;
	uint64_t before_alloc = kcc_test_allocation_count();
	for ( int i = 0; i < frames; ++i )
	{
		vec2s box_before = scene_body_position( boxes[0] );
		kcc_move_result r;
		assert_int_equal( test_gravity_step( c, &velocity, WALK, GRAVITY, DT, &r ), KCC_OK );
		vec2s box_after = scene_body_position( boxes[0] );
		float box_dx = box_after.x - box_before.x;
		float depth = scene_overlap( s, &def.shape, r.position );
		for ( int b = 0; b < count; ++b )
		{
			kcc_shape g = scene_body_box_geometry( boxes[b] );
			depth = fmaxf( depth, scene_depth_in( &def.shape, r.position, &g ) );
			f.worst_height = fmaxf( f.worst_height, fabsf( scene_body_position( boxes[b] ).y - 0.41f ) );
		}
		f.deepest = fmaxf( f.deepest, depth );
		kcc_shape first_box = scene_body_box_geometry( boxes[0] );
		float gap = scene_distance_to( &def.shape, r.position, &first_box );
		f.least_gap_box = fminf( f.least_gap_box, gap );
		kcc_shape last_box = scene_body_box_geometry( boxes[count - 1] );
		bool at_wall = WALL_X - kcc_shape_bounds( &last_box ).max.x <= def.skin + 1e-4f;
		if ( box_dx > 1e-6f )
		{
			SCENE_CHECK( r.flags & KCC_PUSHED, "%s frame %d: the box moved %g, no KCC_PUSHED", name, i, (double)box_dx );
			f.pushing_frames += 1;
			if ( was_pushing && at_wall == false )
			{
				// Between the frame that meets the box and the one that brings it to the wall: in step.
				f.worst_follow = fmaxf( f.worst_follow, fabsf( box_dx - r.displacement.x ) );
			}
			f.worst_gap_box = fmaxf( f.worst_gap_box, fabsf( gap - def.skin ) );
			f.lowest_pushing_vx = fminf( f.lowest_pushing_vx, velocity.x );
		}
		f.final_vx = velocity.x;
		was_pushing = box_dx > 1e-6f;
	}
	f.allocations = kcc_test_allocation_count() - before_alloc;
	kcc_shape last = scene_body_box_geometry( boxes[count - 1] );
	f.wall_gap = WALL_X - kcc_shape_bounds( &last ).max.x;
	for ( int b = 0; b + 1 < count; ++b )
	{
		kcc_shape a = scene_body_box_geometry( boxes[b] );
		kcc_shape n = scene_body_box_geometry( boxes[b + 1] );
		f.box_gaps[b] = kcc_shape_bounds( &n ).min.x - kcc_shape_bounds( &a ).max.x;
	}
	kcc_controller_destroy( c );
	scene_destroy( s );
	return f;
}

static void test_pushed_box_moves_with_the_character_and_stops_at_the_wall( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		push_figures f = push_run( kind, 1, 3.0f, 0.0f, 120 );
		print_message( "%-11s one box: %d frames pushing, follows to %.2g, closest %.6f, off the skin by at most "
					   "%.2g while pushing, wall gap %.6f, vx %g while pushing, %g at the end\n", name, f.pushing_frames,
					   (double)f.worst_follow, (double)f.least_gap_box, (double)f.worst_gap_box, (double)f.wall_gap,
					   (double)f.lowest_pushing_vx, (double)f.final_vx );
		SCENE_CHECK( f.pushing_frames >= 30, "%s: pushed in only %d frames", name, f.pushing_frames );
		SCENE_CHECK( f.worst_follow <= 1e-5f, "%s: the box moved %g off the character's motion", name,
					 (double)f.worst_follow );
		SCENE_CHECK( f.worst_height <= 1e-6f, "%s: the box changed height by %g", name, (double)f.worst_height );
		SCENE_CHECK( f.worst_gap_box <= 1e-4f && f.least_gap_box >= 0.0f,
					 "%s: the character was %g off the skin from the box (closest %g)", name, (double)f.worst_gap_box,
					 (double)f.least_gap_box );
		SCENE_CHECK( fabsf( f.wall_gap - 0.01f ) <= 1e-4f, "%s: the box stopped %.6f from the wall", name,
					 (double)f.wall_gap );
		SCENE_CHECK( f.lowest_pushing_vx == WALK, "%s: velocity.x %g while the box moved", name,
					 (double)f.lowest_pushing_vx );
		SCENE_CHECK( f.final_vx == 0.0f, "%s: velocity.x %g against the stopped box", name, (double)f.final_vx );
		SCENE_CHECK( f.deepest <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)f.deepest );
		SCENE_CHECK( f.allocations == 0, "%s: %llu allocations while pushing", name,
					 (unsigned long long)f.allocations );
	}
}

static void test_a_row_of_three_boxes_is_pushed_as_one( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		push_figures f = push_run( kind, 3, 2.0f, 0.85f, 120 ); // 0.05 apart
		print_message( "%-11s three boxes: %d frames pushing, wall gap %.6f, gaps between boxes %.6f %.6f, vx %g at the "
					   "end\n", name, f.pushing_frames, (double)f.wall_gap, (double)f.box_gaps[0], (double)f.box_gaps[1],
					   (double)f.final_vx );
		SCENE_CHECK( f.pushing_frames >= 20, "%s: pushed in only %d frames", name, f.pushing_frames );
		SCENE_CHECK( f.worst_follow <= 1e-5f, "%s: the first box moved %g off the character's motion", name,
					 (double)f.worst_follow );
		SCENE_CHECK( fabsf( f.wall_gap - 0.01f ) <= 1e-4f, "%s: the last box stopped %.6f from the wall", name,
					 (double)f.wall_gap );
		for ( int b = 0; b < 2; ++b )
		{
			SCENE_CHECK( f.box_gaps[b] >= 0.0f && f.box_gaps[b] <= 0.01f + 1e-4f, "%s: boxes %d and %d are %.6f apart",
						 name, b, b + 1, (double)f.box_gaps[b] );
		}
		SCENE_CHECK( f.worst_height <= 1e-6f, "%s: a box changed height by %g", name, (double)f.worst_height );
		SCENE_CHECK( f.worst_gap_box <= 1e-4f && f.least_gap_box >= 0.0f, "%s: %g off the skin from the first box",
					 name, (double)f.worst_gap_box );
		SCENE_CHECK( f.final_vx == 0.0f, "%s: velocity.x %g against the stopped row", name, (double)f.final_vx );
		SCENE_CHECK( f.deepest <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)f.deepest );
		SCENE_CHECK( f.allocations == 0, "%s: %llu allocations", name, (unsigned long long)f.allocations );
	}
}

// A box already a skin from the wall: it does not move, and the character is blocked a skin from it (KCC_ON_WALL,
// not KCC_PUSHED, velocity zero).
static void test_a_box_against_the_wall_blocks( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = push_level();
		kcc_controller_def def = push_def( kind );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		cpShape* box;
		add_boxes( s, &box, 1, WALL_X - 0.41f, 0.0f );
		vec2s start = scene_body_position( box );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result r;
		for ( int i = 0; i < 150; ++i )
		{
			assert_int_equal( test_gravity_step( c, &velocity, WALK, GRAVITY, DT, &r ), KCC_OK );
		}
		vec2s end = scene_body_position( box );
		kcc_shape g = scene_body_box_geometry( box );
		float gap = scene_distance_to( &def.shape, r.position, &g );
		SCENE_CHECK( end.x == start.x && end.y == start.y, "%s: the box moved (%g, %g)", name,
					 (double)( end.x - start.x ), (double)( end.y - start.y ) );
		SCENE_CHECK( ( r.flags & KCC_PUSHED ) == 0 && ( r.flags & KCC_ON_WALL ), "%s: flags 0x%x against a stuck box",
					 name, (unsigned)r.flags );
		SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s: %.6f from the box", name, (double)gap );
		SCENE_CHECK( velocity.x == 0.0f, "%s: velocity.x %g against the stuck box", name, (double)velocity.x );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// Top-down (FLOATING, no gravity): a dynamic box of mass 2 straight ahead, its centre on the line of motion. With
// def.mass 3 each contact while closing in gives it the velocity of an inelastic contact, 6 * 3 / (3 + 2) = 3.6 along
// the push (measured before cpSpaceStep); with def.mass 0 it is an obstacle and gets nothing.
static void test_dynamic_bodies_receive_an_inelastic_impulse( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int with_mass = 0; with_mass < 2; ++with_mass )
		{
			const char* name = test_character_name( kind );
			scene* s = scene_create( 1.0f );
			scene_commit( s, 0 );
			cpShape* crate = scene_add_body_box( s, kcc_v2( 2.0f, 0.0f ), kcc_v2( 0.4f, 0.4f ), 0.0f, 2.0f, 1u );
			cpBody* body = cpShapeGetBody( crate );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 0.0f ) );
			def.mode = KCC_MODE_FLOATING;
			def.mass = with_mass ? 3.0f : 0.0f;
			kcc_controller* c = kcc_controller_create( s->space, &def );
			assert_non_null( c );
			vec2s out;
			kcc_move_result r;
			bool touched = false;
			for ( int i = 0; i < 60 && touched == false; ++i )
			{
				assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( WALK, 0.0f ), DT, &out, &r ), KCC_OK );
				touched = r.collision_count > 0;
			}
			SCENE_CHECK( touched && r.collisions[0].shape == crate, "%s: never met the crate", name );
			cpVect v = cpBodyGetVelocity( body );
			double w = cpBodyGetAngularVelocity( body );
			double expected = with_mass ? WALK * 3.0 / 5.0 : 0.0;
			print_message( "%-11s mass %g: the crate's velocity after the contact (%.6f, %.6f), spin %.3g, expected "
						   "%.3f\n", name, (double)def.mass, v.x, v.y, w, expected );
			SCENE_CHECK( fabs( v.x - expected ) <= 1e-4 && fabs( v.y ) <= 1e-4 && fabs( w ) <= 1e-3,
						 "%s mass %g: the crate got (%g, %g) spin %g, expected (%g, 0)", name, (double)def.mass, v.x,
						 v.y, w, expected );
			// The character's own move is not changed by the impulse: it stopped at the crate's skin either way.
			kcc_shape g = scene_body_box_geometry( crate );
			float gap = scene_distance_to( &def.shape, r.position, &g );
			SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s: %.6f from the crate", name, (double)gap );
			// A second contact from the crate now moving at 3.6 away: closing speed 2.4, velocity 3.6 + 2.4 * 3 / 5.
			if ( with_mass )
			{
				assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( WALK, 0.0f ), DT, &out, &r ), KCC_OK );
				v = cpBodyGetVelocity( body );
				SCENE_CHECK( r.collision_count == 0 || fabs( v.x - ( 3.6 + 2.4 * 0.6 ) ) <= 1e-4,
							 "%s: second contact gave %g", name, v.x );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// GROUNDED with a space gravity of 30: a crate of mass 1 on the floor. A character of mass 3 walking into it pushes
// it along (the space steps after the character moves); one of mass 0 is stopped by it, which stays put.
static void test_walking_into_a_dynamic_crate( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int with_mass = 0; with_mass < 2; ++with_mass )
		{
			const char* name = test_character_name( kind );
			scene* s = push_level();
			cpSpaceSetGravity( s->space, cpv( 0.0, -GRAVITY ) );
			kcc_controller_def def = push_def( kind );
			def.mass = with_mass ? 3.0f : 0.0f;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			cpShape* crate = scene_add_body_box( s, kcc_v2( 2.0f, 0.4f ), kcc_v2( 0.4f, 0.4f ), 0.0f, 1.0f, LEVEL_CATEGORY );
			cpShapeSetFriction( crate, 0.3 );
			for ( int i = 0; i < s->count; ++i )
			{
				cpShapeSetFriction( s->shapes[i], 1.0 );
			}
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			float deepest = 0.0f;
			for ( int i = 0; i < 90; ++i )
			{
				kcc_move_result r;
				assert_int_equal( test_gravity_step( c, &velocity, 3.0f, GRAVITY, DT, &r ), KCC_OK );
				cpSpaceStep( s->space, DT );
				kcc_shape g = scene_body_box_geometry( crate );
				deepest = fmaxf( deepest, scene_depth_in( &def.shape, kcc_controller_get_position( c ), &g ) );
			}
			vec2s moved = scene_body_position( crate );
			print_message( "%-11s mass %g: the crate ended at x %.4f (from 2), the character at %.4f\n", name,
						   (double)def.mass, (double)moved.x, (double)kcc_controller_get_position( c ).x );
			if ( with_mass )
			{
				SCENE_CHECK( moved.x > 3.0f, "%s: the crate only reached x %g", name, (double)moved.x );
			}
			else
			{
				SCENE_CHECK( fabsf( moved.x - 2.0f ) <= 1e-3f, "%s: a crate pushed with mass 0 moved to %g", name,
							 (double)moved.x );
			}
			SCENE_CHECK( deepest <= 2e-3f, "%s: %g deep in the crate", name, (double)deepest );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Two characters (of every pair of kinds) walking into each other at 6 u/s: they stop, no overlap, no jitter (over
// the last 60 of 120 frames neither moves at all), between zero and two skins apart. Both with characters in a
// category of their own and with Chipmunk's default filter (every category, so also the pushable one: a character
// is still never pushed, its controller owns its body).
static void test_two_characters_pushing_do_not_jitter( void** state )
{
	(void)state;
	for ( int pair = 0; pair < TEST_CHARACTER_COUNT * TEST_CHARACTER_COUNT * 2; ++pair )
	{
		int ka = pair % TEST_CHARACTER_COUNT, kb = ( pair / TEST_CHARACTER_COUNT ) % TEST_CHARACTER_COUNT;
		bool default_filter = pair >= TEST_CHARACTER_COUNT * TEST_CHARACTER_COUNT;
		{
			scene* s = push_level();
			kcc_controller_def da = push_def( ka );
			kcc_controller_def db = push_def( kb );
			if ( default_filter )
			{
				da.filter = CP_SHAPE_FILTER_ALL;
				db.filter = CP_SHAPE_FILTER_ALL;
			}
			db.position.x = 4.0f;
			kcc_controller* a = scene_create_controller( s, &da );
			kcc_controller* b = kcc_controller_create( s->space, &db );
			assert_non_null( a );
			assert_non_null( b );
			vec2s va = kcc_v2( 0.0f, 0.0f ), vb = kcc_v2( 0.0f, 0.0f );
			float late_motion = 0.0f, least = FLT_MAX, most = 0.0f;
			for ( int i = 0; i < 120; ++i )
			{
				kcc_move_result ra, rb;
				assert_int_equal( test_gravity_step( a, &va, WALK, GRAVITY, DT, &ra ), KCC_OK );
				assert_int_equal( test_gravity_step( b, &vb, -WALK, GRAVITY, DT, &rb ), KCC_OK );
				kcc_shape placed_b = kcc_shape_translate( &db.shape, rb.position );
				float gap = scene_distance_to( &da.shape, ra.position, &placed_b );
				float depth = scene_depth_in( &da.shape, ra.position, &placed_b );
				SCENE_CHECK( depth <= 1e-3f, "%s vs %s frame %d: %g deep in each other", test_character_name( ka ),
							 test_character_name( kb ), i, (double)depth );
				if ( i >= 60 )
				{
					late_motion = fmaxf( late_motion, fmaxf( fabsf( ra.displacement.x ) + fabsf( ra.displacement.y ),
															 fabsf( rb.displacement.x ) + fabsf( rb.displacement.y ) ) );
					least = fminf( least, gap );
					most = fmaxf( most, gap );
					SCENE_CHECK( va.x == 0.0f && vb.x == 0.0f, "%s vs %s frame %d: velocities %g, %g while stuck",
								 test_character_name( ka ), test_character_name( kb ), i, (double)va.x, (double)vb.x );
				}
			}
			SCENE_CHECK( late_motion == 0.0f, "%s vs %s: still moving by %g after 60 frames", test_character_name( ka ),
						 test_character_name( kb ), (double)late_motion );
			SCENE_CHECK( least >= 0.0f && most <= 2.0f * da.skin + 1e-4f, "%s vs %s: %g to %g apart",
						 test_character_name( ka ), test_character_name( kb ), (double)least, (double)most );
			kcc_controller_destroy( b );
			kcc_controller_destroy( a );
			scene_destroy( s );
		}
	}
}

// A character standing on another one's head (no input) while the lower one walks right at 3 u/s then left: the
// upper one is carried (its offset from the lower one stays within 1e-4) and stands on it every frame.
static void test_a_character_on_another_is_carried( void** state )
{
	(void)state;
	for ( int kl = 0; kl < TEST_CHARACTER_COUNT; ++kl )
	{
		for ( int ku = 0; ku < TEST_CHARACTER_COUNT; ++ku )
		{
			const char* lower_name = test_character_name( kl );
			const char* upper_name = test_character_name( ku );
			scene* s = push_level();
			kcc_controller_def dl = push_def( kl );
			kcc_controller_def du = push_def( ku );
			du.position.y = test_character_height( kl ) + 0.02f + test_character_half_height( ku ) + 0.01f;
			kcc_controller* lower = scene_create_controller( s, &dl );
			kcc_controller* upper = kcc_controller_create( s->space, &du );
			assert_non_null( lower );
			assert_non_null( upper );
			vec2s vl = kcc_v2( 0.0f, 0.0f ), vu = kcc_v2( 0.0f, 0.0f );
			float worst = 0.0f;
			vec2s offset = kcc_v2( 0.0f, 0.0f );
			for ( int i = 0; i < 150; ++i )
			{
				kcc_move_result rl, ru;
				float walk = i < 30 ? 0.0f : ( i < 90 ? 3.0f : -3.0f );
				assert_int_equal( test_gravity_step( lower, &vl, walk, GRAVITY, DT, &rl ), KCC_OK );
				assert_int_equal( test_gravity_step( upper, &vu, 0.0f, GRAVITY, DT, &ru ), KCC_OK );
				SCENE_CHECK( ( ru.flags & KCC_ON_FLOOR ) && ru.floor_shape == kcc_controller_get_shape( lower ),
							 "%s on %s frame %d: not standing on it (flags 0x%x)", upper_name, lower_name, i,
							 (unsigned)ru.flags );
				vec2s now = glms_vec2_sub( ru.position, rl.position );
				if ( i == 29 )
				{
					offset = now;
				}
				else if ( i > 29 )
				{
					worst = fmaxf( worst, test_vec2_difference( now, offset ) );
				}
			}
			print_message( "%-11s on %-11s: offset drifted %.3g while carried\n", upper_name, lower_name,
						   (double)worst );
			SCENE_CHECK( worst <= 1e-4f, "%s on %s: the offset drifted %g", upper_name, lower_name, (double)worst );
			kcc_controller_destroy( upper );
			kcc_controller_destroy( lower );
			scene_destroy( s );
		}
	}
}
// A move split into parts (40 zones along its path, max_candidates 24: the whole move meets more shapes, its parts
// fit) pushes a box to a wall at x = 2 in its first parts and is blocked by it in the last one: the move still reports
// KCC_PUSHED (what happened in any part is the move's). A part whose shapes overflow the buffer pushes nothing: what
// is in the crates' way may be missing from its candidates.
static void test_a_split_move_reports_the_push_of_an_earlier_part( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = push_level();
		cpShape* box;
		kcc_controller_def def = push_def( kind );
		def.max_candidates = 24;
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		float half_width = test_character_half_width( kind );
		add_boxes( s, &box, 1, half_width + 0.41f, 0.0f ); // 0.01 ahead of the character
		cpShapeSetFilter( scene_add_box( s, 2.0f, 0.0f, 2.5f, 2.0f ),
						  cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
		scene_commit( s, 0 );
		for ( int i = 0; i < 40; ++i )
		{
			float x = 2.0f + 0.05f * (float)i;
			scene_add_sensor_box( s, x, 0.0f, x + 0.04f, 1.0f, 8u );
		}
		vec2s box_before = scene_body_position( box );
		kcc_move_result r;
		assert_int_equal( kcc_controller_move( c, kcc_v2( 4.0f, 0.0f ), &r ), KCC_OK );
		float box_moved = scene_body_position( box ).x - box_before.x;
		SCENE_CHECK( box_moved > 0.1f, "%s: the box moved only %g", name, (double)box_moved );
		SCENE_CHECK( r.position.x < 2.0f - 0.8f, "%s: went through the box and the wall to %g", name,
					 (double)r.position.x );
		SCENE_CHECK( r.flags & KCC_PUSHED, "%s: the box moved %g but the flags 0x%x lack KCC_PUSHED", name,
					 (double)box_moved, (unsigned)r.flags );
		SCENE_CHECK( ( r.flags & KCC_CANDIDATES_TRUNCATED ) == 0, "%s: a part was truncated", name );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}


// mass out of range is refused by the def check, naming the field.
static void test_mass_out_of_range_is_refused( void** state )
{
	(void)state;
	const float bad[] = { -1.0f, NAN, INFINITY };
	for ( size_t i = 0; i < sizeof( bad ) / sizeof( bad[0] ); ++i )
	{
		assert_true( test_def_refuses( offsetof( kcc_controller_def, mass ), bad[i], "mass" ) );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_pushed_box_moves_with_the_character_and_stops_at_the_wall ),
		cmocka_unit_test( test_a_row_of_three_boxes_is_pushed_as_one ),
		cmocka_unit_test( test_a_box_against_the_wall_blocks ),
		cmocka_unit_test( test_dynamic_bodies_receive_an_inelastic_impulse ),
		cmocka_unit_test( test_walking_into_a_dynamic_crate ),
		cmocka_unit_test( test_a_split_move_reports_the_push_of_an_earlier_part ),
		cmocka_unit_test( test_two_characters_pushing_do_not_jitter ),
		cmocka_unit_test( test_a_character_on_another_is_carried ),
		cmocka_unit_test( test_mass_out_of_range_is_refused ),
	};
	return cmocka_run_group_tests_name( "controller_gameplay_push", tests, NULL, NULL );
}
