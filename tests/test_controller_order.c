// SPDX-License-Identifier: MIT
// Order independence (property 11) and rollback across pushes (property 14). The same world (tiles whose edges
// touch, walls, a ramp, zones with equal bounds, pushable crates in a row and apart, a platform) is built with its
// shapes and bodies added to the space in several orders, with the bounding box tree and with the spatial hash, and
// the same inputs are played in each: every position (the character's and the crates'), velocity, flag, collision and
// zone event must be bit-identical. When pushes depended on the order of the query's answer, three crates added in
// reverse order ended 3,071 of 20,000 random moves elsewhere (by an ulp or so); restore + replay after a push was not
// bit-identical either. Then a snapshot (kcc_controller_get_state, the crates' positions) taken in the middle of a
// run, restored, and the same inputs replayed: bit-identical to the first run.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define LEVEL_CATEGORY 1u
#define PUSHABLE_CATEGORY 4u
#define ZONE_CATEGORY 16u
#define MAX_PARTS 96
#define MAX_CRATES 16
#define MOVES 400

// One part of the world: a static box, a sensor box or a body's box.
typedef struct part
{
	int kind; // 0 static, 1 sensor, 2 kinematic crate (pushable), 3 kinematic platform, 4 sensor of a second kind,
			  // 5 static box with its top left corner cut (a wall's twin: the same bounding box, a smaller area)
	float x0, y0, x1, y1;
} part;

typedef struct order_world
{
	cpSpace* space;
	int count;
	part parts[MAX_PARTS];
	cpShape* shapes[MAX_PARTS]; // by part index, whatever the order they were added
	int crates[MAX_CRATES];     // part indices of the bodies
	int crate_count;
} order_world;

static void add_part( order_world* w, int kind, float x0, float y0, float x1, float y1 )
{
	part p = { kind, x0, y0, x1, y1 };
	if ( kind == 2 || kind == 3 )
	{
		w->crates[w->crate_count++] = w->count;
	}
	w->parts[w->count++] = p;
}

// The world's parts (not in a space yet).
static void describe( order_world* w, kcc_motion_mode mode )
{
	for ( int i = 0; i < 24; ++i )
	{
		add_part( w, 0, -8.0f + (float)i, -1.0f, -7.0f + (float)i, 0.0f ); // tiles: neighbours share an edge
	}
	add_part( w, 0, -9.0f, -1.0f, -8.0f, 6.0f );
	add_part( w, 0, 16.0f, -1.0f, 17.0f, 6.0f );
	add_part( w, 5, 16.0f, -1.0f, 17.0f, 6.0f ); // its twin: a wall hit hits both at once
	add_part( w, 0, 3.0f, 4.0f, 8.0f, 4.5f ); // a ceiling
	if ( mode == KCC_MODE_FLOATING )
	{
		add_part( w, 0, -9.0f, 6.0f, 17.0f, 7.0f );
	}
	add_part( w, 1, -3.0f, 0.0f, -1.0f, 2.0f ); // zones: two with the same bounds (told apart by their categories),
	add_part( w, 4, -3.0f, 0.0f, -1.0f, 2.0f ); // one inside them
	add_part( w, 1, -2.5f, 0.0f, -1.5f, 1.0f );
	add_part( w, 1, 9.0f, 0.0f, 12.0f, 3.0f );
	add_part( w, 2, 2.0f, 0.01f, 2.8f, 0.81f ); // crates: a row of three a skin apart, one on its own
	add_part( w, 2, 2.81f, 0.01f, 3.61f, 0.81f );
	add_part( w, 2, 3.62f, 0.01f, 4.42f, 0.81f );
	add_part( w, 2, -6.0f, 0.01f, -5.4f, 0.61f );
	add_part( w, 2, 6.0f, 2.0f, 6.8f, 2.8f ); // a crate in the air (top-down: in the middle of the room)
	add_part( w, 2, -1.4f, 0.01f, -0.6f, 0.81f ); // crates near the start, on either side
	add_part( w, 2, -2.21f, 0.01f, -1.41f, 0.81f );
	add_part( w, 2, 1.0f, 2.7f, 1.6f, 3.3f );
	add_part( w, 2, -1.6f, 2.7f, -1.0f, 3.3f );
	add_part( w, 2, -0.3f, 1.8f, 0.3f, 2.2f );
	add_part( w, 3, 10.0f, 1.5f, 12.0f, 1.8f );
}

static cpShape* make_part( cpSpace* space, const part* p )
{
	cpShape* s;
	if ( p->kind == 2 || p->kind == 3 )
	{
		cpBody* body = cpBodyNewKinematic();
		cpBodySetPosition( body, cpv( 0.5 * ( p->x0 + p->x1 ), 0.5 * ( p->y0 + p->y1 ) ) );
		cpSpaceAddBody( space, body );
		s = cpBoxShapeNew( body, p->x1 - p->x0, p->y1 - p->y0, 0.0 );
	}
	else if ( p->kind == 5 )
	{
		cpVect v[5] = { cpv( p->x0, p->y0 ), cpv( p->x1, p->y0 ), cpv( p->x1, p->y1 ),
						cpv( 0.5 * ( p->x0 + p->x1 ), p->y1 ), cpv( p->x0, p->y1 - 0.5 * ( p->x1 - p->x0 ) ) };
		s = cpPolyShapeNew( cpSpaceGetStaticBody( space ), 5, v, cpTransformIdentity, 0.0 );
	}
	else
	{
		s = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( p->x0, p->y0, p->x1, p->y1 ), 0.0 );
	}
	cpBitmask category = p->kind == 1 ? ZONE_CATEGORY : p->kind == 4 ? 2u * ZONE_CATEGORY
					   : p->kind == 2 ? PUSHABLE_CATEGORY : LEVEL_CATEGORY;
	cpShapeSetSensor( s, p->kind == 1 || p->kind == 4 );
	cpShapeSetFilter( s, cpShapeFilterNew( CP_NO_GROUP, category, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( space, s );
	return s;
}

// The world with its parts added in the order of a shuffle by seed (0: as described), the spatial hash or the tree.
static order_world* build( kcc_motion_mode mode, uint32_t seed, bool hash )
{
	order_world* w = calloc( 1, sizeof( order_world ) );
	assert_non_null( w );
	describe( w, mode );
	w->space = cpSpaceNew();
	if ( hash )
	{
		cpSpaceUseSpatialHash( w->space, 1.0, 1000 );
	}
	int order[MAX_PARTS];
	for ( int i = 0; i < w->count; ++i )
	{
		order[i] = i;
	}
	uint32_t state = seed;
	for ( int i = w->count - 1; seed != 0 && i > 0; --i )
	{
		state = state * 1664525u + 1013904223u;
		int j = (int)( ( state >> 8 ) % (uint32_t)( i + 1 ) );
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for ( int i = 0; i < w->count; ++i )
	{
		w->shapes[order[i]] = make_part( w->space, w->parts + order[i] );
	}
	return w;
}

static void destroy( order_world* w )
{
	for ( int i = 0; i < w->count; ++i )
	{
		cpBody* body = cpShapeGetBody( w->shapes[i] );
		cpSpaceRemoveShape( w->space, w->shapes[i] );
		cpShapeFree( w->shapes[i] );
		if ( body != cpSpaceGetStaticBody( w->space ) )
		{
			cpSpaceRemoveBody( w->space, body );
			cpBodyFree( body );
		}
	}
	cpSpaceFree( w->space );
	free( w );
}

static int part_of( const order_world* w, const cpShape* s )
{
	for ( int i = 0; i < w->count; ++i )
	{
		if ( w->shapes[i] == s )
		{
			return i;
		}
	}
	return -1;
}

// What one move left: everything compared bit for bit (shapes by their part index, not their address).
typedef struct frame_record
{
	vec2s position, velocity;
	uint32_t flags;
	int collision_count, event_count;
	int collision_parts[KCC_MAX_COLLISIONS];
	vec2s collision_normals[KCC_MAX_COLLISIONS];
	int event_parts[KCC_MAX_SENSOR_EVENTS];
	int event_types[KCC_MAX_SENSOR_EVENTS];
	cpVect crates[MAX_CRATES];
} frame_record;

static void record( const order_world* w, const kcc_move_result* r, vec2s velocity, frame_record* out )
{
	memset( out, 0, sizeof( *out ) );
	out->position = r->position;
	out->velocity = velocity;
	out->flags = r->flags;
	out->collision_count = r->collision_count;
	for ( int i = 0; i < r->collision_count; ++i )
	{
		out->collision_parts[i] = part_of( w, r->collisions[i].shape );
		out->collision_normals[i] = r->collisions[i].normal;
	}
	out->event_count = r->sensor_event_count;
	for ( int i = 0; i < r->sensor_event_count && i < KCC_MAX_SENSOR_EVENTS; ++i )
	{
		out->event_parts[i] = part_of( w, r->sensor_events[i].shape );
		out->event_types[i] = (int)r->sensor_events[i].type;
	}
	for ( int i = 0; i < w->crate_count; ++i )
	{
		out->crates[i] = cpBodyGetPosition( cpShapeGetBody( w->shapes[w->crates[i]] ) );
	}
}

// The inputs' state: their random generator and the heading (kept for a while, so that the character gets somewhere).
typedef struct input_state
{
	uint32_t rng;
	float heading;
} input_state;

// The input of the next move (the same in every world): a walk with jumps under gravity, or a top-down move.
static vec2s input( kcc_motion_mode mode, input_state* in, vec2s velocity, bool on_floor )
{
	if ( test_random( &in->rng, 0.0f, 1.0f ) < 0.03f )
	{
		in->heading = test_random( &in->rng, 0.0f, 2.0f * SCENE_PI );
	}
	float turn = test_random( &in->rng, -0.3f, 0.3f );
	if ( mode == KCC_MODE_FLOATING )
	{
		float a = in->heading + turn;
		float speed = test_random( &in->rng, 0.0f, 1.0f ) < 0.9f ? 6.0f : test_random( &in->rng, 0.0f, 120.0f );
		return kcc_v2( speed * cosf( a ), speed * sinf( a ) );
	}
	float vx = ( cosf( in->heading ) >= 0.0f ? 6.0f : -6.0f ) + 3.0f * turn;
	float vy = velocity.y - 30.0f / 60.0f;
	if ( on_floor && test_random( &in->rng, 0.0f, 1.0f ) < 0.05f )
	{
		vy = 11.0f;
	}
	return kcc_v2( vx, vy );
}

// Plays count moves from the world's current state; frames receives what each left.
static void play( order_world* w, kcc_controller* c, kcc_motion_mode mode, input_state* in, vec2s* velocity,
				  int count, frame_record* frames )
{
	for ( int i = 0; i < count; ++i )
	{
		bool on_floor = kcc_controller_is_on_floor( c );
		vec2s v = input( mode, in, *velocity, on_floor );
		kcc_move_result r;
		assert_int_equal( kcc_controller_move_and_slide( c, v, 1.0f / 60.0f, velocity, &r ), KCC_OK );
		if ( mode == KCC_MODE_FLOATING )
		{
			*velocity = kcc_v2( 0.0f, 0.0f );
		}
		record( w, &r, *velocity, frames + i );
	}
}

static kcc_controller* make_character( order_world* w, kcc_motion_mode mode, int kind )
{
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
	def.mode = mode;
	def.pushable_categories = PUSHABLE_CATEGORY;
	def.sensor_mask = 3u * ZONE_CATEGORY;
	def.filter = cpShapeFilterNew( CP_NO_GROUP, 8u, CP_ALL_CATEGORIES );
	if ( mode == KCC_MODE_FLOATING )
	{
		def.position.y = 3.0f;
	}
	kcc_controller* c = kcc_controller_create( w->space, &def );
	assert_non_null( c );
	return c;
}

static int pushes_in( const frame_record* frames, int count )
{
	int pushes = 0;
	for ( int i = 0; i < count; ++i )
	{
		pushes += ( frames[i].flags & KCC_PUSHED ) != 0;
	}
	return pushes;
}

static void check_orders( kcc_motion_mode mode, const char* name )
{
	static frame_record reference[MOVES], other[MOVES];
	int all_pushes = 0;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		int differing = 0, first_difference = -1, pushes = 0;
		for ( int variant = 0; variant < 8; ++variant )
		{
			order_world* w = build( mode, (uint32_t)( variant / 2 ) * 7919u, variant % 2 == 1 );
			kcc_controller* c = make_character( w, mode, kind );
			input_state in = { 12345u + (uint32_t)kind, 0.0f };
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			play( w, c, mode, &in, &velocity, MOVES, variant == 0 ? reference : other );
			pushes += pushes_in( variant == 0 ? reference : other, MOVES );
			if ( variant > 0 )
			{
				for ( int i = 0; i < MOVES; ++i )
				{
					if ( memcmp( reference + i, other + i, sizeof( frame_record ) ) != 0 )
					{
						differing += 1;
						const frame_record* a = reference + i;
						const frame_record* b = other + i;
						print_message( "variant %d move %d: position %a %a / %a %a, flags %x / %x, collisions %d / %d, "
									   "events %d / %d (%d %d / %d %d)\n", variant, i, (double)a->position.x,
									   (double)a->position.y, (double)b->position.x, (double)b->position.y, a->flags,
									   b->flags, a->collision_count, b->collision_count, a->event_count,
									   b->event_count, a->event_parts[0], a->event_parts[1], b->event_parts[0],
									   b->event_parts[1] );
						first_difference = first_difference < 0 ? i : first_difference;
						break;
					}
				}
			}
			kcc_controller_destroy( c );
			destroy( w );
		}
		print_message( "%s %s: %d pushing moves of %d; %d of 7 other orders and indexes differ (first at move %d)\n",
					   name, test_character_name( kind ), pushes / 8, MOVES, differing, first_difference );
		all_pushes += pushes;
		SCENE_CHECK( differing == 0, "%s %s: %d worlds built in another order moved differently (first at move %d)",
					 name, test_character_name( kind ), differing, first_difference );
	}
	assert_true( all_pushes >= 8 * 50 );
}

static void test_grounded_moves_do_not_depend_on_the_order_shapes_were_added( void** state )
{
	(void)state;
	check_orders( KCC_MODE_GROUNDED, "GROUNDED" );
}

static void test_floating_moves_do_not_depend_on_the_order_shapes_were_added( void** state )
{
	(void)state;
	check_orders( KCC_MODE_FLOATING, "FLOATING" );
}

// The report's case: three crates apart on a floor, GROUNDED; one random move from a random start (the crates put back
// first) in a world with its parts added in order and one with them added in reverse: the same end, bit for bit.
static void test_one_push_ends_the_same_whatever_the_order_of_the_crates( void** state )
{
	(void)state;
	order_world* worlds[2];
	kcc_controller* cs[2];
	for ( int k = 0; k < 2; ++k )
	{
		order_world* w = calloc( 1, sizeof( order_world ) );
		assert_non_null( w );
		add_part( w, 0, -10.0f, -1.0f, 20.0f, 0.0f );
		add_part( w, 0, 9.0f, 0.0f, 10.0f, 3.0f );
		add_part( w, 5, 9.0f, 0.0f, 10.0f, 3.0f );
		add_part( w, 2, 1.51f, 0.01f, 2.49f, 0.99f );
		add_part( w, 2, 2.51f, 0.01f, 3.49f, 0.99f );
		add_part( w, 2, 3.53f, 0.01f, 4.27f, 0.75f );
		w->space = cpSpaceNew();
		for ( int i = 0; i < w->count; ++i )
		{
			int j = k == 0 ? i : w->count - 1 - i;
			w->shapes[j] = make_part( w->space, w->parts + j );
		}
		worlds[k] = w;
		cs[k] = make_character( w, KCC_MODE_GROUNDED, TEST_CAPSULE );
	}
	uint32_t rng = 99u;
	int differing = 0, pushes = 0;
	const int trials = 3000;
	for ( int t = 0; t < trials; ++t )
	{
		vec2s start = kcc_v2( test_random( &rng, -1.0f, 8.0f ), 0.61f );
		float length = test_random( &rng, 0.0f, 8.0f );
		float angle = test_random( &rng, -0.3f, 0.3f ) + ( test_random( &rng, 0.0f, 1.0f ) < 0.5f ? 0.0f : SCENE_PI );
		vec2s delta = kcc_v2( length * cosf( angle ), length * sinf( angle ) );
		frame_record r[2];
		for ( int k = 0; k < 2; ++k )
		{
			order_world* w = worlds[k];
			for ( int i = 0; i < w->crate_count; ++i )
			{
				const part* p = w->parts + w->crates[i];
				cpBody* body = cpShapeGetBody( w->shapes[w->crates[i]] );
				cpBodySetPosition( body, cpv( 0.5 * ( p->x0 + p->x1 ), 0.5 * ( p->y0 + p->y1 ) ) );
				cpSpaceReindexShapesForBody( w->space, body );
			}
			assert_int_equal( kcc_controller_set_position( cs[k], start ), KCC_OK );
			kcc_move_result result;
			assert_int_equal( kcc_controller_move( cs[k], delta, &result ), KCC_OK );
			record( w, &result, kcc_v2( 0.0f, 0.0f ), r + k );
		}
		pushes += ( r[0].flags & KCC_PUSHED ) != 0;
		differing += memcmp( r + 0, r + 1, sizeof( frame_record ) ) != 0;
	}
	print_message( "%d moves (%d pushing): %d end differently with the crates added in reverse order\n", trials, pushes,
				   differing );
	assert_true( pushes > trials / 10 );
	assert_int_equal( differing, 0 );
	for ( int k = 0; k < 2; ++k )
	{
		kcc_controller_destroy( cs[k] );
		destroy( worlds[k] );
	}
}

// Run MOVES moves, snapshot at every 40th (state, velocity, crate positions, the inputs' state), then restore each
// snapshot (a world built in another order each time: the space's own index differs after the crates were
// reindexed) and replay the rest: bit-identical to the first run.
static void check_rollback( kcc_motion_mode mode, const char* name )
{
	static frame_record first[MOVES], replay[MOVES];
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		order_world* w = build( mode, 17u, true );
		kcc_controller* c = make_character( w, mode, kind );
		input_state in = { 777u + (uint32_t)kind, 0.0f };
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		enum { SNAPSHOTS = MOVES / 40 };
		kcc_controller_state states[SNAPSHOTS];
		vec2s velocities[SNAPSHOTS];
		input_state ins[SNAPSHOTS];
		cpVect crates[SNAPSHOTS][MAX_CRATES];
		for ( int s = 0; s < SNAPSHOTS; ++s )
		{
			states[s] = kcc_controller_get_state( c );
			velocities[s] = velocity;
			ins[s] = in;
			for ( int k = 0; k < w->crate_count; ++k )
			{
				crates[s][k] = cpBodyGetPosition( cpShapeGetBody( w->shapes[w->crates[k]] ) );
			}
			play( w, c, mode, &in, &velocity, 40, first + 40 * s );
		}
		int differing = 0;
		for ( int s = SNAPSHOTS - 1; s >= 0; --s )
		{
			assert_int_equal( kcc_controller_set_state( c, &states[s] ), KCC_OK );
			for ( int k = 0; k < w->crate_count; ++k )
			{
				cpBody* body = cpShapeGetBody( w->shapes[w->crates[k]] );
				cpBodySetPosition( body, crates[s][k] );
				cpSpaceReindexShapesForBody( w->space, body );
			}
			velocity = velocities[s];
			in = ins[s];
			play( w, c, mode, &in, &velocity, MOVES - 40 * s, replay + 40 * s );
			size_t size = (size_t)( MOVES - 40 * s ) * sizeof( frame_record );
			differing += memcmp( first + 40 * s, replay + 40 * s, size ) != 0;
		}
		print_message( "%s %s: %d pushing moves; %d of %d replays differ\n", name, test_character_name( kind ),
					   pushes_in( first, MOVES ), differing, (int)SNAPSHOTS );
		SCENE_CHECK( differing == 0, "%s %s: %d replays after a restore were not bit-identical", name,
					 test_character_name( kind ), differing );
		kcc_controller_destroy( c );
		destroy( w );
	}
}

static void test_grounded_rollback_across_pushes_is_bit_identical( void** state )
{
	(void)state;
	check_rollback( KCC_MODE_GROUNDED, "GROUNDED" );
}

static void test_floating_rollback_across_pushes_is_bit_identical( void** state )
{
	(void)state;
	check_rollback( KCC_MODE_FLOATING, "FLOATING" );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_one_push_ends_the_same_whatever_the_order_of_the_crates ),
		cmocka_unit_test( test_grounded_moves_do_not_depend_on_the_order_shapes_were_added ),
		cmocka_unit_test( test_floating_moves_do_not_depend_on_the_order_shapes_were_added ),
		cmocka_unit_test( test_grounded_rollback_across_pushes_is_bit_identical ),
		cmocka_unit_test( test_floating_rollback_across_pushes_is_bit_identical ),
	};
	return cmocka_run_group_tests_name( "controller_order", tests, NULL, NULL );
}
