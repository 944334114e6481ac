// SPDX-License-Identifier: MIT
// Pushing as one solve (property 16, and property 1 for crates):
// - a row of crates (kinematic boxes 0.98 wide, 1.0 apart from x = 2, the default capsule at (1.19, 0.61)): one move
//   of 30 took 16 s when each crate recursed into every crate in its swept area, and the crates moved depended on the
//   push's length (a row of 9 moved 0.09 for a push of 1, 2.01 for 3, 9.01 for 10). Now the chain closes its gaps up
//   to KCC_MAX_PUSHED_BODIES crates and stops before moving one more, the same for every length;
// - a row within the limit moves as one and stops a skin from the wall;
// - random pushes, top-down (FLOATING) and GROUNDED, into piles of crates (some overlapping from the start, some
//   turned), walls, a platform, a dynamic body and other characters: after every move, measured with the core's
//   kcc_penetration on shapes read from Chipmunk, no crate is deeper in anything than before the move (beyond 1e-4),
//   and the character is not inside anything by more than 1e-3 of its height without KCC_CRUSHED. Before this solve,
//   FLOATING pushes left crates inside crates, characters and walls, and characters inside the crates they pushed.
#define _POSIX_C_SOURCE 199309L // clock_gettime
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <cmocka.h>

#include "controller_scene.h"

#define LEVEL_CATEGORY 1u
#define PUSHABLE_CATEGORY 4u
#define CHARACTER_CATEGORY 8u
#define MAX_BODIES 128

// A world of our own: static boxes, kinematic (or dynamic) box bodies, all freed by push_world_destroy.
typedef struct push_world
{
	cpSpace* space;
	int static_count;
	cpShape* statics[64];
	int body_count;
	cpShape* bodies[MAX_BODIES];
	bool pushable[MAX_BODIES];
} push_world;

static push_world* push_world_create( void )
{
	push_world* w = calloc( 1, sizeof( push_world ) );
	assert_non_null( w );
	w->space = cpSpaceNew();
	return w;
}

static void push_world_destroy( push_world* w )
{
	for ( int i = 0; i < w->body_count; ++i )
	{
		cpBody* body = cpShapeGetBody( w->bodies[i] );
		cpSpaceRemoveShape( w->space, w->bodies[i] );
		cpShapeFree( w->bodies[i] );
		cpSpaceRemoveBody( w->space, body );
		cpBodyFree( body );
	}
	for ( int i = 0; i < w->static_count; ++i )
	{
		cpSpaceRemoveShape( w->space, w->statics[i] );
		cpShapeFree( w->statics[i] );
	}
	cpSpaceFree( w->space );
	free( w );
}

static void add_static_box( push_world* w, float x0, float y0, float x1, float y1 )
{
	cpShape* s = cpBoxShapeNew2( cpSpaceGetStaticBody( w->space ), cpBBNew( x0, y0, x1, y1 ), 0.0 );
	cpShapeSetFilter( s, cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( w->space, s );
	w->statics[w->static_count++] = s;
}

// A box body at center (half extents h, turned by angle): kinematic when mass is 0, dynamic otherwise.
static cpShape* add_body( push_world* w, vec2s center, vec2s h, float angle, float mass, cpBitmask category )
{
	cpBody* body = mass > 0.0f ? cpBodyNew( mass, cpMomentForBox( mass, 2.0 * h.x, 2.0 * h.y ) ) : cpBodyNewKinematic();
	cpBodySetPosition( body, cpv( center.x, center.y ) );
	cpBodySetAngle( body, angle );
	cpSpaceAddBody( w->space, body );
	cpShape* s = cpBoxShapeNew( body, 2.0 * h.x, 2.0 * h.y, 0.0 );
	cpShapeSetFilter( s, cpShapeFilterNew( CP_NO_GROUP, category, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( w->space, s );
	w->pushable[w->body_count] = category == PUSHABLE_CATEGORY && mass == 0.0f;
	w->bodies[w->body_count++] = s;
	return s;
}

static vec2s body_position( const cpShape* s )
{
	cpVect p = cpBodyGetPosition( cpShapeGetBody( s ) );
	return kcc_v2( (float)p.x, (float)p.y );
}

// A polygon shape where Chipmunk has it now, as a core polygon: the independent measure.
static kcc_shape geometry_of( const cpShape* shape )
{
	return scene_body_box_geometry( shape );
}

static float depth_between( const kcc_shape* a, const kcc_shape* b )
{
	kcc_aabb ba = kcc_shape_bounds( a ), bb = kcc_shape_bounds( b );
	if ( ba.max.x < bb.min.x || bb.max.x < ba.min.x || ba.max.y < bb.min.y || bb.max.y < ba.min.y )
	{
		return 0.0f;
	}
	kcc_penetration_output p = kcc_penetration( a, b );
	return p.overlapping ? p.depth : 0.0f;
}

static double now_seconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

// The row of the report: a floor, count crates 0.98 x 0.98 centred at x = 2 + i (0.02 apart, a skin above the floor),
// the default capsule at (1.19, 0.61) (0.02 from the first crate), pushable_categories 4.
static kcc_controller* row_world( push_world* w, int count, float wall_x )
{
	add_static_box( w, -10.0f, -1.0f, 2.0f * (float)count + 20.0f, 0.0f );
	if ( wall_x > 0.0f )
	{
		add_static_box( w, wall_x, 0.0f, wall_x + 1.0f, 3.0f );
	}
	for ( int i = 0; i < count; ++i )
	{
		add_body( w, kcc_v2( 2.0f + (float)i, 0.5f ), kcc_v2( 0.49f, 0.49f ), 0.0f, 0.0f, PUSHABLE_CATEGORY );
	}
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 1.19f, 0.61f );
	def.pushable_categories = PUSHABLE_CATEGORY;
	kcc_controller* c = kcc_controller_create( w->space, &def );
	assert_non_null( c );
	return c;
}

// One move of length into a row of 60 crates: exactly KCC_MAX_PUSHED_BODIES crates move, each closing the gaps
// before it (crate k by (K - k) skins), the character by its own gap plus K skins; the same for every length.
static void test_a_long_row_moves_a_bounded_chain_whatever_the_push( void** state )
{
	(void)state;
	const float lengths[] = { 1.0f, 3.0f, 10.0f, 30.0f };
	const int count = 60;
	vec2s first_result[MAX_BODIES];
	for ( size_t l = 0; l < sizeof( lengths ) / sizeof( lengths[0] ); ++l )
	{
		push_world* w = push_world_create();
		kcc_controller* c = row_world( w, count, 0.0f );
		vec2s before[MAX_BODIES];
		for ( int i = 0; i < count; ++i )
		{
			before[i] = body_position( w->bodies[i] );
		}
		kcc_move_result r;
		double start = now_seconds();
		assert_int_equal( kcc_controller_move( c, kcc_v2( lengths[l], 0.0f ), &r ), KCC_OK );
		double seconds = now_seconds() - start;
		int moved = 0;
		for ( int i = 0; i < count; ++i )
		{
			vec2s p = body_position( w->bodies[i] );
			float dx = p.x - before[i].x;
			moved += dx != 0.0f;
			assert_true( p.y == before[i].y );
			float expected = i < KCC_MAX_PUSHED_BODIES ? 0.01f * (float)( KCC_MAX_PUSHED_BODIES - i ) : 0.0f;
			SCENE_CHECK( fabsf( dx - expected ) <= 2e-5f, "push %g: crate %d moved %.6f, expected %.6f",
						 (double)lengths[l], i, (double)dx, (double)expected );
			if ( l == 0 )
			{
				first_result[i] = p;
			}
			else
			{
				SCENE_CHECK( fabsf( p.x - first_result[i].x ) <= 1e-5f, "push %g: crate %d at %.7f, push 1: %.7f",
							 (double)lengths[l], i, (double)p.x, (double)first_result[i].x );
			}
		}
		print_message( "row of %d, push %g: %d crates moved, the character %.6f, %.3f ms\n", count,
					   (double)lengths[l], moved, (double)r.displacement.x, 1.0e3 * seconds );
		assert_int_equal( moved, KCC_MAX_PUSHED_BODIES );
		SCENE_CHECK( fabsf( r.displacement.x - 0.01f * (float)( KCC_MAX_PUSHED_BODIES + 1 ) ) <= 2e-5f,
					 "push %g: the character moved %.6f", (double)lengths[l], (double)r.displacement.x );
		assert_true( r.flags & KCC_PUSHED );
		kcc_controller_destroy( c );
		push_world_destroy( w );
	}
}

// A row of KCC_MAX_PUSHED_BODIES crates and a wall 3 units past the last: pushes of 1, 3 and 10 move the whole row
// as one until the last crate is a skin from the wall; the crates end a skin apart, the character a skin behind.
static void test_a_row_within_the_limit_moves_as_one_to_the_wall( void** state )
{
	(void)state;
	const float lengths[] = { 1.0f, 3.0f, 10.0f };
	const int count = KCC_MAX_PUSHED_BODIES;
	const float wall = 2.0f + (float)count - 0.51f + 3.0f;
	for ( size_t l = 0; l < sizeof( lengths ) / sizeof( lengths[0] ); ++l )
	{
		push_world* w = push_world_create();
		kcc_controller* c = row_world( w, count, wall );
		kcc_move_result r;
		for ( int i = 0; i < 20; ++i )
		{
			assert_int_equal( kcc_controller_move( c, kcc_v2( lengths[l], 0.0f ), &r ), KCC_OK );
		}
		kcc_shape last = geometry_of( w->bodies[count - 1] );
		float wall_gap = wall - kcc_shape_bounds( &last ).max.x;
		SCENE_CHECK( fabsf( wall_gap - 0.01f ) <= 1e-4f, "push %g: the last crate %.6f from the wall",
					 (double)lengths[l], (double)wall_gap );
		for ( int i = 0; i + 1 < count; ++i )
		{
			kcc_shape a = geometry_of( w->bodies[i] ), b = geometry_of( w->bodies[i + 1] );
			float gap = kcc_shape_bounds( &b ).min.x - kcc_shape_bounds( &a ).max.x;
			SCENE_CHECK( fabsf( gap - 0.01f ) <= 1e-4f, "push %g: crates %d and %d %.6f apart", (double)lengths[l], i,
						 i + 1, (double)gap );
		}
		kcc_shape first = geometry_of( w->bodies[0] );
		kcc_controller_def def = kcc_default_controller_def();
		kcc_shape character = kcc_shape_translate( &def.shape, r.position );
		float gap = kcc_distance( &character, &first ).distance;
		SCENE_CHECK( fabsf( gap - 0.01f ) <= 1e-4f, "push %g: the character %.6f from the first crate",
					 (double)lengths[l], (double)gap );
		kcc_controller_destroy( c );
		push_world_destroy( w );
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Random pushes into piles

#define PILE_CHARACTERS 3

typedef struct pile_figures
{
	int moves, pushes, crate_moves;
	int crate_failures, character_failures;
	float worst_crate, worst_character; // deepest new overlap beyond what was there before, world units / heights
} pile_figures;

// Every shape of the world where it is now (statics, bodies, then the characters), for the measures below.
static int world_geometry( push_world* w, kcc_controller* const* cs, const kcc_controller_def* defs, kcc_shape* out )
{
	int n = 0;
	for ( int i = 0; i < w->body_count; ++i )
	{
		out[n++] = geometry_of( w->bodies[i] );
	}
	for ( int k = 0; k < w->static_count; ++k )
	{
		out[n++] = geometry_of( w->statics[k] );
	}
	for ( int k = 0; k < PILE_CHARACTERS; ++k )
	{
		out[n++] = kcc_shape_translate( &defs[k].shape, kcc_controller_get_position( cs[k] ) );
	}
	return n;
}

// Depth of crate i in everything but itself: statics, other bodies, characters.
static void crate_depths( push_world* w, kcc_controller* const* cs, const kcc_controller_def* defs, float* out )
{
	kcc_shape shapes[MAX_BODIES + 64 + PILE_CHARACTERS];
	int n = world_geometry( w, cs, defs, shapes );
	for ( int i = 0; i < w->body_count; ++i )
	{
		float d = 0.0f;
		for ( int k = 0; k < n; ++k )
		{
			if ( k != i )
			{
				d = fmaxf( d, depth_between( shapes + i, shapes + k ) );
			}
		}
		out[i] = d;
	}
}

// Depth of character index in every solid and every other character.
static float character_depth( push_world* w, kcc_controller* const* cs, const kcc_controller_def* defs, int index )
{
	kcc_shape shapes[MAX_BODIES + 64 + PILE_CHARACTERS];
	int n = world_geometry( w, cs, defs, shapes );
	int me = n - PILE_CHARACTERS + index;
	float d = 0.0f;
	for ( int k = 0; k < n; ++k )
	{
		if ( k != me )
		{
			d = fmaxf( d, depth_between( shapes + me, shapes + k ) );
		}
	}
	return d;
}

// A closed room 12 x 12, a pile of crates (a 5 x 5 grid 0.6 wide with random gaps of 0 to 0.1, some turned, a few
// overlapping their neighbour from the start), a kinematic platform (not pushable), a dynamic box, and the three test
// characters around the pile; then random moves of every character, of 0.01 to 4 units, toward the pile mostly.
static pile_figures pile_run( kcc_motion_mode mode, uint32_t seed, int frames )
{
	pile_figures f;
	memset( &f, 0, sizeof( f ) );
	uint32_t rng = seed;
	push_world* w = push_world_create();
	add_static_box( w, -7.0f, -7.0f, 7.0f, -6.0f );
	add_static_box( w, -7.0f, 6.0f, 7.0f, 7.0f );
	add_static_box( w, -7.0f, -6.0f, -6.0f, 6.0f );
	add_static_box( w, 6.0f, -6.0f, 7.0f, 6.0f );
	add_static_box( w, 2.5f, -6.0f, 3.0f, -5.5f ); // a block on the floor
	for ( int gy = 0; gy < 5; ++gy )
	{
		for ( int gx = 0; gx < 5; ++gx )
		{
			float x = -1.6f + 0.7f * (float)gx + test_random( &rng, -0.05f, 0.05f );
			float y = ( mode == KCC_MODE_GROUNDED ? -5.69f : -1.6f ) + 0.7f * (float)gy;
			y += test_random( &rng, -0.05f, 0.05f );
			float angle = test_random( &rng, 0.0f, 1.0f ) < 0.2f ? test_random( &rng, -0.5f, 0.5f ) : 0.0f;
			if ( mode == KCC_MODE_GROUNDED && gy == 0 )
			{
				y = -5.69f;
				angle = 0.0f;
			}
			add_body( w, kcc_v2( x, y ), kcc_v2( 0.3f, 0.3f ), angle, 0.0f, PUSHABLE_CATEGORY );
		}
	}
	add_body( w, kcc_v2( 3.5f, -2.0f ), kcc_v2( 0.8f, 0.15f ), 0.0f, 0.0f, LEVEL_CATEGORY );  // a platform
	add_body( w, kcc_v2( -3.5f, -3.0f ), kcc_v2( 0.4f, 0.4f ), 0.0f, 2.0f, LEVEL_CATEGORY ); // a dynamic box
	kcc_controller* cs[PILE_CHARACTERS];
	kcc_controller_def defs[PILE_CHARACTERS];
	const vec2s spawn[PILE_CHARACTERS] = { { { -4.5f, -5.39f } }, { { 4.5f, -5.39f } }, { { 0.0f, 4.0f } } };
	for ( int k = 0; k < PILE_CHARACTERS; ++k )
	{
		defs[k] = test_character_def( k, spawn[k] );
		defs[k].position.y = k == 2 ? 4.0f : -6.0f + test_character_half_height( k ) + 0.02f;
		defs[k].mode = mode;
		defs[k].pushable_categories = PUSHABLE_CATEGORY;
		defs[k].filter = cpShapeFilterNew( CP_NO_GROUP, CHARACTER_CATEGORY, CP_ALL_CATEGORIES );
		cs[k] = kcc_controller_create( w->space, &defs[k] );
		assert_non_null( cs[k] );
	}
	float before[MAX_BODIES], after[MAX_BODIES];
	vec2s velocity[PILE_CHARACTERS] = { { { 0.0f, 0.0f } } };
	for ( int frame = 0; frame < frames; ++frame )
	{
		for ( int k = 0; k < PILE_CHARACTERS; ++k )
		{
			crate_depths( w, cs, defs, before );
			vec2s positions[MAX_BODIES];
			for ( int i = 0; i < w->body_count; ++i )
			{
				positions[i] = body_position( w->bodies[i] );
			}
			vec2s p = kcc_controller_get_position( cs[k] );
			// Toward the pile's centre (with a spread), or anywhere.
			vec2s target = test_random( &rng, 0.0f, 1.0f ) < 0.7f ? kcc_v2( test_random( &rng, -2.0f, 2.0f ),
																			test_random( &rng, -5.0f, 1.0f ) )
																  : kcc_v2( test_random( &rng, -6.0f, 6.0f ),
																			test_random( &rng, -6.0f, 6.0f ) );
			vec2s dir = glms_vec2_normalize( glms_vec2_sub( target, p ) );
			float length = expf( test_random( &rng, logf( 0.01f ), logf( 4.0f ) ) );
			kcc_move_result r;
			if ( mode == KCC_MODE_FLOATING )
			{
				assert_int_equal( kcc_controller_move( cs[k], glms_vec2_scale( dir, length ), &r ), KCC_OK );
			}
			else
			{
				float vx = dir.x * fminf( length, 1.0f ) * 60.0f;
				bool jump = test_random( &rng, 0.0f, 1.0f ) < 0.05f;
				if ( kcc_controller_is_on_floor( cs[k] ) && jump )
				{
					velocity[k].y = 12.0f;
				}
				assert_int_equal( test_gravity_step( cs[k], &velocity[k], vx, 30.0f, 1.0f / 60.0f, &r ), KCC_OK );
			}
			f.moves += 1;
			int moved = 0;
			for ( int i = 0; i < w->body_count; ++i )
			{
				vec2s q = body_position( w->bodies[i] );
				moved += q.x != positions[i].x || q.y != positions[i].y;
			}
			f.pushes += moved > 0;
			f.crate_moves += moved;
			crate_depths( w, cs, defs, after );
			for ( int i = 0; i < w->body_count; ++i )
			{
				float worse = after[i] - before[i];
				if ( worse > 1e-4f )
				{
					f.crate_failures += 1;
					f.worst_crate = fmaxf( f.worst_crate, worse );
				}
			}
			float height = test_character_height( k );
			float depth = character_depth( w, cs, defs, k ) / height;
			if ( depth > 1e-3f && ( r.flags & KCC_CRUSHED ) == 0 )
			{
				f.character_failures += 1;
				f.worst_character = fmaxf( f.worst_character, depth );
			}
		}
	}
	for ( int k = 0; k < PILE_CHARACTERS; ++k )
	{
		kcc_controller_destroy( cs[k] );
	}
	push_world_destroy( w );
	return f;
}

static void check_piles( kcc_motion_mode mode, const char* name )
{
	pile_figures total;
	memset( &total, 0, sizeof( total ) );
	for ( uint32_t seed = 1; seed <= 4; ++seed )
	{
		pile_figures f = pile_run( mode, seed, 100 );
		total.moves += f.moves;
		total.pushes += f.pushes;
		total.crate_moves += f.crate_moves;
		total.crate_failures += f.crate_failures;
		total.character_failures += f.character_failures;
		total.worst_crate = fmaxf( total.worst_crate, f.worst_crate );
		total.worst_character = fmaxf( total.worst_character, f.worst_character );
	}
	print_message( "%s piles: %d moves, %d pushed crates (%d crate moves); crates deeper than before: %d (worst %g), "
				   "characters inside without KCC_CRUSHED: %d (worst %g heights)\n",
				   name, total.moves, total.pushes, total.crate_moves, total.crate_failures, (double)total.worst_crate,
				   total.character_failures, (double)total.worst_character );
	assert_true( total.pushes > total.moves / 20 );
	SCENE_CHECK( total.crate_failures == 0, "%s: %d crates pushed deeper into something (worst %g)", name,
				 total.crate_failures, (double)total.worst_crate );
	SCENE_CHECK( total.character_failures == 0, "%s: %d moves ended inside something without KCC_CRUSHED (worst %g "
				 "heights)", name, total.character_failures, (double)total.worst_character );
}

static void test_floating_pushes_into_piles_walls_and_characters_leave_no_overlap( void** state )
{
	(void)state;
	check_piles( KCC_MODE_FLOATING, "FLOATING" );
}

static void test_grounded_pushes_into_piles_leave_no_overlap( void** state )
{
	(void)state;
	check_piles( KCC_MODE_GROUNDED, "GROUNDED" );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_long_row_moves_a_bounded_chain_whatever_the_push ),
		cmocka_unit_test( test_a_row_within_the_limit_moves_as_one_to_the_wall ),
		cmocka_unit_test( test_floating_pushes_into_piles_walls_and_characters_leave_no_overlap ),
		cmocka_unit_test( test_grounded_pushes_into_piles_leave_no_overlap ),
	};
	return cmocka_run_group_tests_name( "controller_push_chain", tests, NULL, NULL );
}
