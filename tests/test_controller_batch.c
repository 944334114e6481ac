// SPDX-License-Identifier: MIT
// kcc_move_and_slide_batch against sequential kcc_controller_move_and_slide calls in array order, on twin worlds built
// the same way, over 150 frames: every position, returned velocity, move result, controller state, and the crates',
// platform's and dynamic box's poses and velocities bit-identical (shape and body pointers compared as the objects
// they name). Scenes: a crowd of capsules that ignore each other (the gauntlet's), a crowd that meets, pushes crates,
// bumps a dynamic box, rides a moving platform and crosses sensors (GROUNDED), the same top-down (FLOATING), and one
// character twice in a batch. Also: bad inputs (an error and nothing moved), and no allocation in a second batch.
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../controller/internal.h"
#include "alloc_hooks.h"
#include "assert_recorder.h"
#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define WALK 6.0f
#define FRAMES 150
#define MAX_CHARACTERS 80

#define LEVEL_CATEGORY 1u
#define SENSOR_CATEGORY 2u
#define CRATE_CATEGORY 4u
#define CHARACTER_CATEGORY 8u
#define SEER_CATEGORY 16u

typedef enum scene_kind
{
	SCENE_GHOSTS,   // capsules that ignore each other, on separate tiles
	SCENE_CROWD,    // characters that meet, crates, a dynamic box, a platform, sensors: GROUNDED
	SCENE_TOPDOWN,  // the same, FLOATING, in a walled room
	SCENE_TWICE,    // the crowd, each character's entry given twice in the batch
	SCENE_GHOSTS_TWICE, // the ghosts, each twice: enough moves for the batch to list them on several threads
	SCENE_SUBSETS,  // the ghosts and pairs of seers that see each other only, a different part of them in each batch
	SCENE_WATCHED,  // the ghosts and pairs of seers that the ghosts see, the seers in every third batch only
} scene_kind;

static bool scene_ghosts( scene_kind kind )
{
	return kind == SCENE_GHOSTS || kind == SCENE_GHOSTS_TWICE || kind == SCENE_SUBSETS || kind == SCENE_WATCHED;
}

// SCENE_SUBSETS and SCENE_WATCHED: pairs of neighbours among every 20 characters are seers of a kind (1 or 2; 0: a
// ghost). Each pair sees itself; the ghosts see SCENE_WATCHED's seers only.
static int scene_seer( scene_kind kind, int i )
{
	if ( ( kind == SCENE_SUBSETS || kind == SCENE_WATCHED ) && ( i % 20 == 3 || i % 20 == 4 ) )
	{
		return 1;
	}
	return kind == SCENE_SUBSETS && ( i % 20 == 13 || i % 20 == 14 ) ? 2 : 0;
}

// A character's filter in the ghost scenes. The seers of SCENE_SUBSETS join a ghosts' batch with the ghosts' mask and
// a category of their own (1), or with the ghosts' category and every category in their mask (2): either changes only
// the categories or only the mask of the filters that the batch's moves read by.
static cpShapeFilter scene_ghost_filter( scene_kind kind, int i )
{
	int seer = scene_seer( kind, i );
	cpBitmask ghosts = ~(cpBitmask)CHARACTER_CATEGORY;
	if ( seer == 0 )
	{
		return cpShapeFilterNew( CP_NO_GROUP, CHARACTER_CATEGORY, ghosts );
	}
	if ( kind == SCENE_WATCHED )
	{
		return cpShapeFilterNew( CP_NO_GROUP, SEER_CATEGORY, CP_ALL_CATEGORIES );
	}
	return seer == 1 ? cpShapeFilterNew( CP_NO_GROUP, SEER_CATEGORY, ghosts )
					 : cpShapeFilterNew( CP_NO_GROUP, CHARACTER_CATEGORY, CP_ALL_CATEGORIES );
}

static bool scene_twice( scene_kind kind )
{
	return kind == SCENE_TWICE || kind == SCENE_GHOSTS_TWICE;
}

typedef struct world
{
	scene* s;
	scene_kind kind;
	int count;   // characters
	int entries; // batch entries (count, or 2 * count)
	kcc_controller* c[MAX_CHARACTERS];
	vec2s velocity[MAX_CHARACTERS]; // what each character's next move starts from
	cpBody* platform;
	cpShape* moving_sensor;
	int pushes, rides, events, bumps, meetings, steps; // what the frames exercised (batch side)
} world;

// Whether entry e is in the frame's batch (the others move by single calls before it). SCENE_SUBSETS, in turn: all;
// the ghosts alone; the seers of kind 1 and every other ghost; the ghosts alone; the seers of kind 2 and every other
// ghost; the ghosts alone. A batch with seers has other readers than the last one, whose readers rejected every
// character (the seers of a pair meet). SCENE_WATCHED: all, then the ghosts alone twice: the second has the readers of
// the last, and the seers it does not move are read by them.
static bool scene_batched( const world* w, int e, int frame )
{
	int seer = scene_seer( w->kind, e );
	if ( w->kind == SCENE_WATCHED )
	{
		return frame % 3 == 0 || seer == 0;
	}
	if ( w->kind != SCENE_SUBSETS || frame % 6 == 0 )
	{
		return true;
	}
	return frame % 2 == 1 ? seer == 0 : seer == frame % 6 / 2 || ( seer == 0 && e % 2 == 0 );
}

static void world_build( world* w, scene_kind kind )
{
	memset( w, 0, sizeof( *w ) );
	w->kind = kind;
	scene* s = scene_create( 1.0f );
	w->s = s;
	bool topdown = kind == SCENE_TOPDOWN;
	if ( topdown == false )
	{
		cpSpaceSetGravity( s->space, cpv( 0.0, -GRAVITY ) );
	}
	// Level: a floor of separate tiles (top at 0), walls at both ends, a ceiling over part of it; top-down, the same
	// outline is a room's walls and there are pillars in it.
	scene_add_tile_row( s, -60, -1, 120 );
	scene_add_box( s, -62.0f, -1.0f, -60.0f, 12.0f );
	scene_add_box( s, 60.0f, -1.0f, 62.0f, 12.0f );
	scene_add_box( s, -24.0f, 3.0f, -14.0f, 3.5f );
	scene_add_box( s, 2.5f, 0.0f, 4.0f, 0.25f ); // a step
	if ( topdown )
	{
		scene_add_box( s, -60.0f, 12.0f, 60.0f, 13.0f );
		for ( int i = 0; i < 6; ++i )
		{
			scene_add_circle( s, kcc_v2( -52.0f + 21.0f * (float)i, 7.0f ), 0.6f );
		}
	}
	for ( int i = 0; i < s->count; ++i )
	{
		cpShapeSetFilter( s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	}
	scene_commit( s, 7 );
	scene_add_sensor_box( s, 4.0f, 0.0f, 4.5f, 3.0f, SENSOR_CATEGORY );
	scene_add_sensor_box( s, -56.0f, 0.0f, -55.5f, 3.0f, SENSOR_CATEGORY );
	if ( scene_ghosts( kind ) == false )
	{
		float y = topdown ? 5.0f : 0.41f;
		for ( int i = 0; i < 3; ++i )
		{
			scene_add_body_box( s, kcc_v2( -15.0f + 0.9f * (float)i, y ), kcc_v2( 0.4f, 0.4f ), 0.0f, 0.0f, CRATE_CATEGORY );
		}
		scene_add_body_box( s, kcc_v2( 15.5f, y ), kcc_v2( 0.4f, 0.4f ), 0.0f, 0.0f, CRATE_CATEGORY );
		cpShape* box = scene_add_body_box( s, kcc_v2( topdown ? -51.5f : -45.0f, topdown ? 1.5f : 0.5f ), kcc_v2( 0.5f, 0.5f ), 0.0f,
										   2.0f, LEVEL_CATEGORY );
		(void)box;
		cpShape* platform = scene_add_body_box( s, kcc_v2( 48.0f, 2.0f ), kcc_v2( 2.5f, 0.25f ), 0.0f, 0.0f,
												LEVEL_CATEGORY );
		w->platform = cpShapeGetBody( platform );
		// A zone on a kinematic body (read from the snapshot, not the static index).
		cpBody* zone_body = cpBodyNewKinematic();
		cpBodySetPosition( zone_body, cpv( -27.0, 1.0 ) );
		cpSpaceAddBody( s->space, zone_body );
		cpShape* zone = cpBoxShapeNew( zone_body, 1.0, 2.0, 0.0 );
		cpShapeSetSensor( zone, cpTrue );
		cpShapeSetFilter( zone, cpShapeFilterNew( CP_NO_GROUP, SENSOR_CATEGORY, CP_ALL_CATEGORIES ) );
		w->moving_sensor = scene_keep_extra( s, zone );
	}
	// Characters: three kinds in turn, spaced along the floor (on the platform's path too).
	w->count = scene_ghosts( kind ) ? 80 : 24; // more bodies than the snapshot's first arrays hold
	for ( int i = 0; i < w->count; ++i )
	{
		int k = scene_ghosts( kind ) ? TEST_CAPSULE : i % TEST_CHARACTER_COUNT;
		// The ghosts one beside the other; the others in four groups of six that meet within the group.
		float x = scene_ghosts( kind ) ? -55.0f + 1.3f * (float)i : -54.0f + 30.0f * (float)( i / 6 ) + 1.5f * (float)( i % 6 );
		float y = topdown ? 1.5f + (float)( i % 5 ) * 2.0f : test_character_half_height( k ) + 0.01f;
		if ( scene_ghosts( kind ) == false && i == 20 )
		{
			x = 48.0f; // on the platform
			y = 2.25f + test_character_half_height( k ) + 0.01f;
		}
		kcc_controller_def def = test_character_def( k, kcc_v2( x, y ) );
		def.filter = scene_ghosts( kind ) ? scene_ghost_filter( kind, i )
										  : cpShapeFilterNew( CP_NO_GROUP, CHARACTER_CATEGORY, CP_ALL_CATEGORIES );
		if ( scene_ghosts( kind ) == false )
		{
			def.sensor_mask = SENSOR_CATEGORY; // the ghosts keep the default (every category), as the gauntlet's
			def.pushable_categories = CRATE_CATEGORY;
			def.mass = i % 2 == 0 || i % 6 == 5 ? 1.0f : 0.0f;
			def.step_height = i % 3 == 0 ? 0.3f : 0.0f;
			def.step_min_width = i % 6 == 0 ? 0.6f : 0.0f;
			def.corner_correction = i % 4 == 1 ? 0.2f : 0.0f;
		}
		if ( topdown )
		{
			def.mode = KCC_MODE_FLOATING;
		}
		// Moves of different max_candidates share the workers' contexts; the last character's grows them.
		def.max_candidates = i == w->count - 1 ? 1024 : i % 3 == 1 ? 16 : def.max_candidates;
		w->c[i] = kcc_controller_create( s->space, &def );
		assert_non_null( w->c[i] );
	}
	w->entries = scene_twice( kind ) ? 2 * w->count : w->count;
}

static void world_destroy( world* w )
{
	for ( int i = 0; i < w->count; ++i )
	{
		kcc_controller_destroy( w->c[i] );
	}
	scene_destroy( w->s );
}

// The platform's velocity for a frame (the game moves its platforms first, then its characters).
static void world_step( world* w, int frame )
{
	if ( w->platform != NULL )
	{
		double vx = ( frame / 60 ) % 2 == 0 ? 3.0 : -3.0;
		cpBodySetVelocity( w->platform, cpv( vx, frame % 50 < 25 ? 0.5 : -0.5 ) );
		cpBodySetPosition( cpShapeGetBody( w->moving_sensor ), cpv( -27.0 + 0.02 * ( frame % 100 ), 1.0 ) );
		cpSpaceReindexShapesForBody( w->s->space, cpShapeGetBody( w->moving_sensor ) );
	}
	cpSpaceStep( w->s->space, DT );
}

// The input of entry e at a frame: walking back and forth (each in its own rhythm), jumping now and then; top-down,
// turning circles.
static vec2s world_input( const world* w, int e, int frame )
{
	int i = e % w->count;
	vec2s v = w->velocity[i];
	if ( w->kind == SCENE_TOPDOWN && i == 0 )
	{
		return kcc_v2( WALK, 0.0f ); // into the dynamic box
	}
	if ( w->kind == SCENE_TOPDOWN )
	{
		float angle = 0.05f * (float)frame + (float)i;
		return kcc_v2( WALK * cosf( angle ), WALK * sinf( angle ) );
	}
	float x = ( ( frame + 13 * i ) / 45 ) % 2 == 0 ? WALK : -WALK;
	if ( scene_seer( w->kind, i ) != 0 )
	{
		// The two of a pair (odd on the left) walk toward each other three quarters of the time: they meet often.
		x = ( frame % 40 < 30 ) == ( i % 2 == 1 ) ? WALK : -WALK;
	}
	bool on_floor = ( kcc_controller_get_floor_normal( w->c[i] ).y != 0.0f );
	float y = v.y - GRAVITY * DT;
	if ( on_floor && ( frame + 7 * i ) % 40 == 0 )
	{
		y = 9.0f;
	}
	return kcc_v2( x, y );
}

// A shape of the world as a number (pointer values differ between the twins).
static uintptr_t world_shape_id( const world* w, const cpShape* shape )
{
	if ( shape == NULL )
	{
		return 0;
	}
	for ( int i = 0; i < w->s->count; ++i )
	{
		if ( w->s->shapes[i] == shape )
		{
			return 1 + (uintptr_t)i;
		}
	}
	for ( int i = 0; i < w->s->extra_count; ++i )
	{
		if ( w->s->extras[i] == shape )
		{
			return 10000 + (uintptr_t)i;
		}
	}
	for ( int i = 0; i < w->count; ++i )
	{
		if ( cpShapeGetUserData( (cpShape*)shape ) == (void*)w->c[i] )
		{
			return 20000 + (uintptr_t)i;
		}
	}
	return 99999;
}

static uintptr_t world_body_id( const world* w, const cpBody* body )
{
	if ( body == NULL )
	{
		return 0;
	}
	for ( int i = 0; i < w->s->extra_count; ++i )
	{
		if ( cpShapeGetBody( w->s->extras[i] ) == body )
		{
			return 10000 + (uintptr_t)i;
		}
	}
	return 99999;
}

static void normalize_result( const world* w, kcc_move_result* r )
{
	r->floor_shape = (cpShape*)world_shape_id( w, r->floor_shape );
	for ( int i = 0; i < KCC_MAX_COLLISIONS; ++i )
	{
		r->collisions[i].shape = (cpShape*)world_shape_id( w, r->collisions[i].shape );
	}
	for ( int i = 0; i < KCC_MAX_SENSORS; ++i )
	{
		r->sensors[i] = (cpShape*)world_shape_id( w, r->sensors[i] );
	}
	for ( int i = 0; i < KCC_MAX_SENSOR_EVENTS; ++i )
	{
		r->sensor_events[i].shape = (cpShape*)world_shape_id( w, r->sensor_events[i].shape );
	}
}

// The controller state's fields, pointers as numbers.
static void assert_same_state( const world* a, const world* b, int i )
{
	kcc_controller_state x = kcc_controller_get_state( a->c[i] );
	kcc_controller_state y = kcc_controller_get_state( b->c[i] );
	assert_memory_equal( &x.position, &y.position, sizeof( x.position ) );
	assert_int_equal( x.flags, y.flags );
	assert_memory_equal( &x.floor_normal, &y.floor_normal, sizeof( x.floor_normal ) );
	assert_int_equal( x.support_count, y.support_count );
	assert_memory_equal( x.supports, y.supports, (size_t)x.support_count * sizeof( vec2s ) );
	assert_int_equal( world_shape_id( a, x.floor_shape ), world_shape_id( b, y.floor_shape ) );
	assert_memory_equal( &x.wall_normal, &y.wall_normal, sizeof( x.wall_normal ) );
	assert_int_equal( x.floor_one_way, y.floor_one_way );
	assert_int_equal( world_shape_id( a, x.drop_shape ), world_shape_id( b, y.drop_shape ) );
	assert_int_equal( world_body_id( a, x.platform ), world_body_id( b, y.platform ) );
	assert_memory_equal( &x.platform_position, &y.platform_position, sizeof( x.platform_position ) );
	assert_memory_equal( &x.platform_angle, &y.platform_angle, sizeof( x.platform_angle ) );
	assert_memory_equal( &x.carry_anchor, &y.carry_anchor, sizeof( x.carry_anchor ) );
	assert_memory_equal( &x.platform_velocity, &y.platform_velocity, sizeof( x.platform_velocity ) );
	assert_memory_equal( &x.belt_velocity, &y.belt_velocity, sizeof( x.belt_velocity ) );
	assert_memory_equal( &x.real_velocity, &y.real_velocity, sizeof( x.real_velocity ) );
	assert_memory_equal( &x.last_dt, &y.last_dt, sizeof( x.last_dt ) );
	assert_int_equal( x.zone_count, y.zone_count );
	for ( int k = 0; k < x.zone_count; ++k )
	{
		assert_int_equal( world_shape_id( a, x.zones[k] ), world_shape_id( b, y.zones[k] ) );
	}
}

// Every body's pose and velocity, in the order the twins made them.
static void assert_same_bodies( const world* a, const world* b )
{
	for ( int i = 0; i < a->s->extra_count; ++i )
	{
		const cpBody* x = cpShapeGetBody( a->s->extras[i] );
		const cpBody* y = cpShapeGetBody( b->s->extras[i] );
		cpVect px = cpBodyGetPosition( x ), py = cpBodyGetPosition( y );
		cpVect vx = cpBodyGetVelocity( x ), vy = cpBodyGetVelocity( y );
		double ax = cpBodyGetAngle( x ), ay = cpBodyGetAngle( y );
		double wx = cpBodyGetAngularVelocity( x ), wy = cpBodyGetAngularVelocity( y );
		assert_memory_equal( &px, &py, sizeof( px ) );
		assert_memory_equal( &vx, &vy, sizeof( vx ) );
		assert_memory_equal( &ax, &ay, sizeof( ax ) );
		assert_memory_equal( &wx, &wy, sizeof( wx ) );
		cpBB bx = cpShapeGetBB( a->s->extras[i] ), by = cpShapeGetBB( b->s->extras[i] );
		assert_memory_equal( &bx, &by, sizeof( bx ) );
	}
}

// What Chipmunk's own query finds around every character after the batch: the same shapes as after sequential calls
// (the batch reindexed what it moved).
typedef struct found_list
{
	const world* w;
	uintptr_t ids[256];
	int count;
} found_list;

static void found_shape( cpShape* shape, void* data )
{
	found_list* f = data;
	if ( f->count < 256 )
	{
		f->ids[f->count++] = world_shape_id( f->w, shape );
	}
}

static int compare_ids( const void* a, const void* b )
{
	uintptr_t x = *(const uintptr_t*)a, y = *(const uintptr_t*)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

static void assert_same_index( const world* a, const world* b )
{
	for ( int i = 0; i < a->count; ++i )
	{
		vec2s p = kcc_controller_get_position( a->c[i] );
		cpBB box = cpBBNew( p.x - 1.5, p.y - 1.5, p.x + 1.5, p.y + 1.5 );
		found_list fa = { a, { 0 }, 0 }, fb = { b, { 0 }, 0 };
		cpSpaceBBQuery( a->s->space, box, CP_SHAPE_FILTER_ALL, found_shape, &fa );
		cpSpaceBBQuery( b->s->space, box, CP_SHAPE_FILTER_ALL, found_shape, &fb );
		qsort( fa.ids, (size_t)fa.count, sizeof( uintptr_t ), compare_ids );
		qsort( fb.ids, (size_t)fb.count, sizeof( uintptr_t ), compare_ids );
		assert_int_equal( fa.count, fb.count );
		assert_memory_equal( fa.ids, fb.ids, (size_t)fa.count * sizeof( uintptr_t ) );
	}
}

static int s_waves, s_largest_wave, s_batches; // of the batches of one run_twins
static bool s_deferred; // run_twins: the batch side's space defers its index sync (synced before the comparisons)

// One frame on both twins: a batch on a, sequential calls on b; then everything compared.
static void frame_both( world* a, world* b, int frame, const kcc_task_system* tasks )
{
	world_step( a, frame );
	world_step( b, frame );
	kcc_controller* list[2 * MAX_CHARACTERS];
	vec2s in[2 * MAX_CHARACTERS], out_a[2 * MAX_CHARACTERS], out_b[2 * MAX_CHARACTERS];
	static kcc_move_result ra[2 * MAX_CHARACTERS], rb[2 * MAX_CHARACTERS];
	memset( ra, 0, sizeof( ra ) );
	memset( rb, 0, sizeof( rb ) );
	// The entries not in the batch move first, by single calls on both twins; entry[p] is the entry at place p of the
	// batch.
	int entry[2 * MAX_CHARACTERS];
	int batched = 0;
	for ( int e = 0; e < a->entries; ++e )
	{
		vec2s v = world_input( a, e, frame );
		vec2s check = world_input( b, e, frame );
		assert_memory_equal( &check, &v, sizeof( vec2s ) );
		if ( scene_batched( a, e, frame ) )
		{
			entry[batched] = e;
			list[batched] = a->c[e % a->count];
			in[batched] = scene_twice( a->kind ) && e >= a->count ? glms_vec2_scale( v, 0.5f ) : v;
			batched += 1;
			continue;
		}
		static kcc_move_result single_a, single_b;
		memset( &single_a, 0, sizeof( single_a ) );
		memset( &single_b, 0, sizeof( single_b ) );
		vec2s va, vb;
		assert_int_equal( kcc_controller_move_and_slide( a->c[e], v, DT, &va, &single_a ), KCC_OK );
		assert_int_equal( kcc_controller_move_and_slide( b->c[e], v, DT, &vb, &single_b ), KCC_OK );
		normalize_result( a, &single_a );
		normalize_result( b, &single_b );
		assert_memory_equal( &single_a, &single_b, sizeof( single_a ) );
		assert_memory_equal( &va, &vb, sizeof( va ) );
		a->velocity[e] = va;
		b->velocity[e] = vb;
	}
	assert_int_equal( kcc_move_and_slide_batch( list, batched, in, DT, out_a, ra, tasks ), KCC_OK );
	const kcc_snapshot* snapshot = *kcc_static_index_snapshot( a->c[0]->static_index );
	if ( s_deferred )
	{
		// What the batch moved waits (the twice scene runs as sequential calls, which reindex at once).
		assert_true( scene_twice( a->kind ) ? snapshot == NULL || snapshot->pending_count == 0 : snapshot->pending_count > 0 );
		assert_int_equal( kcc_space_sync( a->s->space ), KCC_OK );
		assert_true( snapshot == NULL || snapshot->pending_count == 0 );
	}
	s_batches += 1;
	s_waves += snapshot != NULL ? snapshot->wave_count : 0;
	s_largest_wave = snapshot != NULL && snapshot->largest_wave > s_largest_wave ? snapshot->largest_wave : s_largest_wave;
	for ( int k = 0; k < batched; ++k )
	{
		assert_int_equal( kcc_controller_move_and_slide( b->c[entry[k] % b->count], in[k], DT, out_b + k, rb + k ),
						  KCC_OK );
	}
	for ( int e = 0; e < batched; ++e )
	{
		normalize_result( a, ra + e );
		normalize_result( b, rb + e );
		if ( memcmp( ra + e, rb + e, sizeof( kcc_move_result ) ) != 0 || memcmp( out_a + e, out_b + e, sizeof( vec2s ) ) != 0 )
		{
			fail_msg( "frame %d entry %d: batch (%.9g, %.9g) v (%.9g, %.9g), sequential (%.9g, %.9g) v (%.9g, %.9g)",
					  frame, e, (double)ra[e].position.x, (double)ra[e].position.y, (double)out_a[e].x,
					  (double)out_a[e].y, (double)rb[e].position.x, (double)rb[e].position.y, (double)out_b[e].x,
					  (double)out_b[e].y );
		}
		a->pushes += ( ra[e].flags & KCC_PUSHED ) != 0;
		a->steps += ( ra[e].flags & KCC_STEPPED ) != 0;
		a->events += ra[e].sensor_event_count;
		for ( int k = 0; k < ra[e].collision_count; ++k )
		{
			a->meetings += ra[e].collisions[k].shape >= (cpShape*)20000 && ra[e].collisions[k].shape < (cpShape*)30000;
		}
		a->velocity[entry[e] % a->count] = out_a[e];
		b->velocity[entry[e] % b->count] = out_b[e];
	}
	for ( int i = 0; i < a->count; ++i )
	{
		assert_same_state( a, b, i );
		a->rides += a->platform != NULL && kcc_controller_get_state( a->c[i] ).platform == a->platform;
	}
	for ( int i = 0; i < a->s->extra_count; ++i )
	{
		const cpBody* body = cpShapeGetBody( a->s->extras[i] );
		a->bumps += cpBodyGetType( (cpBody*)body ) == CP_BODY_TYPE_DYNAMIC && fabs( cpBodyGetVelocity( body ).x ) > 0.5;
	}
	assert_same_bodies( a, b );
	assert_same_index( a, b );
}

// ---------------------------------------------------------------------------------------------------------------
// Task systems

// Adversarial and deterministic: runs the ranges of a task on the calling thread, in a scrambled order, as workers
// numbered round-robin; every range at least min_range long (the last one may be shorter).
typedef struct scrambled_tasks
{
	int workers;
	uint32_t seed;
	int tasks;  // enqueued
	int ranges; // run
} scrambled_tasks;

static void* scrambled_enqueue( kcc_task_fcn* task, int item_count, int min_range, void* context, void* user )
{
	scrambled_tasks* st = user;
	assert_true( min_range >= 1 );
	int size = ( item_count + 2 * st->workers - 1 ) / ( 2 * st->workers );
	size = size < min_range ? min_range : size;
	int count = ( item_count + size - 1 ) / size;
	int order[4 * MAX_CHARACTERS];
	assert_true( count <= 4 * MAX_CHARACTERS );
	for ( int i = 0; i < count; ++i )
	{
		order[i] = i;
	}
	for ( int i = count - 1; i > 0; --i )
	{
		st->seed = st->seed * 1664525u + 1013904223u;
		int j = (int)( ( st->seed >> 8 ) % (uint32_t)( i + 1 ) );
		int swap = order[i];
		order[i] = order[j];
		order[j] = swap;
	}
	for ( int k = 0; k < count; ++k )
	{
		int start = order[k] * size;
		int end = start + size < item_count ? start + size : item_count;
		task( start, end, k % st->workers, context );
		st->ranges += 1;
	}
	st->tasks += 1;
	return NULL; // ran it all
}

static void scrambled_finish( void* handle, void* user )
{
	(void)handle;
	(void)user;
	fail_msg( "finish called for a task that enqueue ran already" );
}

static kcc_task_system scrambled_system( scrambled_tasks* st, int workers )
{
	memset( st, 0, sizeof( *st ) );
	st->workers = workers;
	st->seed = 12345u + (uint32_t)workers;
	kcc_task_system ts = { workers, scrambled_enqueue, scrambled_finish, st };
	return ts;
}

// Real threads: the calling thread and workers - 1 threads started per task take ranges of min_range until none is
// left (one task at a time, as the batch uses it).
typedef struct thread_tasks
{
	int workers;
	kcc_task_fcn* task;
	void* context;
	int item_count;
	int min_range;
	atomic_int next;
	pthread_t threads[8];
	int worker_ids[8];
	int tasks;
} thread_tasks;

static void thread_tasks_work( thread_tasks* tt, int worker )
{
	for ( ;; )
	{
		int start = atomic_fetch_add( &tt->next, tt->min_range );
		if ( start >= tt->item_count )
		{
			return;
		}
		int end = start + tt->min_range < tt->item_count ? start + tt->min_range : tt->item_count;
		tt->task( start, end, worker, tt->context );
	}
}

typedef struct thread_start
{
	thread_tasks* tt;
	int worker;
} thread_start;

static thread_start s_starts[8];

static void* thread_tasks_main( void* data )
{
	thread_start* ts = data;
	thread_tasks_work( ts->tt, ts->worker );
	return NULL;
}

static void* thread_enqueue( kcc_task_fcn* task, int item_count, int min_range, void* context, void* user )
{
	thread_tasks* tt = user;
	tt->task = task;
	tt->context = context;
	tt->item_count = item_count;
	tt->min_range = min_range;
	atomic_store( &tt->next, 0 );
	for ( int w = 1; w < tt->workers; ++w )
	{
		s_starts[w].tt = tt;
		s_starts[w].worker = w;
		assert_int_equal( pthread_create( tt->threads + w, NULL, thread_tasks_main, s_starts + w ), 0 );
	}
	tt->tasks += 1;
	return tt;
}

static void thread_finish( void* handle, void* user )
{
	thread_tasks* tt = user;
	assert_ptr_equal( handle, tt );
	thread_tasks_work( tt, 0 );
	for ( int w = 1; w < tt->workers; ++w )
	{
		pthread_join( tt->threads[w], NULL );
	}
}

static kcc_task_system thread_system( thread_tasks* tt, int workers )
{
	memset( tt, 0, sizeof( *tt ) );
	tt->workers = workers;
	kcc_task_system ts = { workers, thread_enqueue, thread_finish, tt };
	return ts;
}

static void run_twins( scene_kind kind, const kcc_task_system* tasks )
{
	reset_asserts();
	s_waves = 0;
	s_largest_wave = 0;
	s_batches = 0;
	world a, b;
	world_build( &a, kind );
	world_build( &b, kind );
	if ( s_deferred )
	{
		assert_int_equal( kcc_space_set_deferred_sync( a.s->space, true ), KCC_OK );
	}
	for ( int frame = 0; frame < FRAMES; ++frame )
	{
		frame_both( &a, &b, frame, tasks );
	}
	assert_int_equal( s_assert_count, 0 ); // no query left its influence box (builds with asserts)
	print_message( "%d pushes, %d rides, %d sensor events, %d frames with a bumped box, %d contacts between characters, "
				   "%d steps\n", a.pushes, a.rides, a.events, a.bumps, a.meetings, a.steps );
	assert_true( a.events > 0 );
	if ( scene_ghosts( kind ) == false )
	{
		assert_true( a.pushes > 0 && a.bumps > 0 && a.meetings > 0 );
	}
	if ( kind == SCENE_SUBSETS || kind == SCENE_WATCHED )
	{
		assert_true( a.meetings > 0 ); // the seers met each other, or the ghosts the seers
	}
	if ( kind == SCENE_CROWD || kind == SCENE_TWICE )
	{
		assert_true( a.rides > 0 && a.steps > 0 );
	}
	if ( tasks != NULL && tasks->worker_count > 1 && scene_twice( kind ) == false )
	{
		// Waves of several moves ran on the workers: characters that ignore each other all at once; where they
		// meet, more than one wave.
		print_message( "%.2f waves per batch of %d, the largest %d moves\n", (double)s_waves / s_batches, a.entries,
					   s_largest_wave );
		assert_true( s_largest_wave > 1 );
		assert_true( kind == SCENE_GHOSTS ? s_waves == s_batches && s_largest_wave == a.entries
										   : kind == SCENE_SUBSETS || kind == SCENE_WATCHED || s_waves > s_batches );
	}
	world_destroy( &a );
	world_destroy( &b );
}

static void test_ghosts_match_sequential_calls( void** state )
{
	(void)state;
	run_twins( SCENE_GHOSTS, NULL );
}

static void test_crowd_matches_sequential_calls( void** state )
{
	(void)state;
	run_twins( SCENE_CROWD, NULL );
}

static void test_topdown_matches_sequential_calls( void** state )
{
	(void)state;
	run_twins( SCENE_TOPDOWN, NULL );
}

static void test_same_character_twice( void** state )
{
	(void)state;
	run_twins( SCENE_TWICE, NULL );
	scrambled_tasks st;
	kcc_task_system ts = scrambled_system( &st, 3 );
	run_twins( SCENE_TWICE, &ts );
	// Both places of a character listed on different threads at once: one of them tells, and the batch refuses.
	for ( int workers = 2; workers <= 3; ++workers )
	{
		thread_tasks tt;
		ts = thread_system( &tt, workers );
		run_twins( SCENE_GHOSTS_TWICE, &ts );
		assert_true( tt.tasks > 0 );
	}
}

// Batches of a different part of the characters each frame (the rest moved by single calls before them), their readers
// changing from one batch to the next: every character's shape is where it is, and read by the moves that may read it.
static void test_subsets_match_sequential_calls( void** state )
{
	(void)state;
	for ( int kind = SCENE_SUBSETS; kind <= SCENE_WATCHED; ++kind )
	{
		run_twins( (scene_kind)kind, NULL );
		for ( int workers = 2; workers <= 3; ++workers )
		{
			thread_tasks tt;
			kcc_task_system ts = thread_system( &tt, workers );
			run_twins( (scene_kind)kind, &ts );
			assert_true( tt.tasks > 0 );
		}
		s_deferred = true;
		thread_tasks tt;
		kcc_task_system ts = thread_system( &tt, 2 );
		run_twins( (scene_kind)kind, &ts );
		s_deferred = false;
	}
}

// Every scene on the scrambled task system at 1, 2, 3 and 8 workers.
static void test_scrambled_workers_match_sequential_calls( void** state )
{
	(void)state;
	const int workers[4] = { 1, 2, 3, 8 };
	for ( int k = 0; k < 4; ++k )
	{
		for ( int kind = SCENE_GHOSTS; kind <= SCENE_TOPDOWN; ++kind )
		{
			scrambled_tasks st;
			kcc_task_system ts = scrambled_system( &st, workers[k] );
			run_twins( (scene_kind)kind, &ts );
			assert_true( workers[k] == 1 ? st.tasks == 0 : st.ranges > st.tasks );
		}
	}
}

// The same on real threads.
static void test_threads_match_sequential_calls( void** state )
{
	(void)state;
	const int workers[4] = { 1, 2, 3, 8 };
	for ( int k = 0; k < 4; ++k )
	{
		for ( int kind = SCENE_GHOSTS; kind <= SCENE_TOPDOWN; ++kind )
		{
			thread_tasks tt;
			kcc_task_system ts = thread_system( &tt, workers[k] );
			run_twins( (scene_kind)kind, &ts );
			assert_true( workers[k] == 1 ? tt.tasks == 0 : tt.tasks > 0 );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Deferred sync: the batch leaves Chipmunk's index to kcc_space_sync.

// With kcc_space_sync after each batch (before the next frame's cpSpaceStep), everything matches sequential calls,
// Chipmunk's index and the dynamic box included.
static void test_deferred_sync_matches_sequential_calls( void** state )
{
	(void)state;
	s_deferred = true;
	for ( int kind = SCENE_GHOSTS; kind <= SCENE_GHOSTS_TWICE; ++kind )
	{
		run_twins( (scene_kind)kind, NULL );
	}
	thread_tasks tt;
	kcc_task_system ts = thread_system( &tt, 2 );
	run_twins( SCENE_CROWD, &ts );
	run_twins( SCENE_TOPDOWN, &ts );
	s_deferred = false;
}

// How many characters a Chipmunk query around each one's current box finds (the box shrunk a little).
static int characters_found( const world* w )
{
	int found = 0;
	for ( int i = 0; i < w->count; ++i )
	{
		cpBB bb = cpShapeGetBB( kcc_controller_get_shape( w->c[i] ) );
		found_list f = { w, { 0 }, 0 };
		cpSpaceBBQuery( w->s->space, cpBBNew( bb.l + 0.05, bb.b + 0.05, bb.r - 0.05, bb.t - 0.05 ),
						CP_SHAPE_FILTER_ALL, found_shape, &f );
		for ( int k = 0; k < f.count; ++k )
		{
			found += f.ids[k] == world_shape_id( w, kcc_controller_get_shape( w->c[i] ) );
		}
	}
	return found;
}

// Characters walked 3 units by deferred batches: Chipmunk's index still holds them where they were until
// kcc_space_sync (or kcc_space_set_deferred_sync( false )), with the default tree and with the spatial hash.
static void test_deferred_index_waits_for_sync( void** state )
{
	(void)state;
	for ( int index = 0; index < 2; ++index )
	{
		for ( int off = 0; off < 2; ++off )
		{
			world w;
			world_build( &w, SCENE_GHOSTS );
			if ( index == 1 )
			{
				cpSpaceUseSpatialHash( w.s->space, 2.0, 4096 );
			}
			assert_int_equal( kcc_space_set_deferred_sync( w.s->space, true ), KCC_OK );
			vec2s in[MAX_CHARACTERS];
			for ( int i = 0; i < w.count; ++i )
			{
				in[i] = kcc_v2( i < w.count / 2 ? WALK : -WALK, 0.0f );
			}
			for ( int frame = 0; frame < 30; ++frame )
			{
				assert_int_equal( kcc_move_and_slide_batch( w.c, w.count, in, DT, NULL, NULL, NULL ), KCC_OK );
			}
			assert_true( characters_found( &w ) < w.count / 2 );
			if ( off == 0 )
			{
				assert_int_equal( kcc_space_sync( w.s->space ), KCC_OK );
			}
			else
			{
				assert_int_equal( kcc_space_set_deferred_sync( w.s->space, false ), KCC_OK );
			}
			assert_int_equal( characters_found( &w ), w.count );
			if ( off == 1 )
			{
				// No longer deferred: the next batch reindexes as it returns.
				assert_int_equal( kcc_move_and_slide_batch( w.c, w.count, in, DT, NULL, NULL, NULL ), KCC_OK );
				assert_int_equal( characters_found( &w ), w.count );
			}
			world_destroy( &w );
		}
	}
}

// Capsules a at x = -20 and b at x = 10 on a floor, deferred sync on: a walks 48 frames right in batches of one, to
// about x = 4, and Chipmunk's index still holds it at -20.
static scene* deferred_pair( kcc_controller_def* def, kcc_controller** a, kcc_controller** b )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -40, -1, 80 );
	scene_commit( s, 7 );
	*def = test_character_def( TEST_CAPSULE, kcc_v2( -20.0f, 0.61f ) );
	*a = kcc_controller_create( s->space, def );
	def->position = kcc_v2( 10.0f, 0.61f );
	*b = kcc_controller_create( s->space, def );
	assert_non_null( *a );
	assert_non_null( *b );
	assert_int_equal( kcc_space_set_deferred_sync( s->space, true ), KCC_OK );
	kcc_controller* list[1] = { *a };
	vec2s in[1] = { kcc_v2( 30.0f, 0.0f ) };
	for ( int frame = 0; frame < 48; ++frame )
	{
		assert_int_equal( kcc_move_and_slide_batch( list, 1, in, DT, NULL, NULL, NULL ), KCC_OK );
	}
	return s;
}

// A single call after a deferred batch syncs first: its query finds a character the batch moved into its path from
// beyond its query box.
static void test_single_call_after_deferred_batch_syncs( void** state )
{
	(void)state;
	kcc_controller_def def;
	kcc_controller *a, *b;
	scene* s = deferred_pair( &def, &a, &b );
	vec2s pa = kcc_controller_get_position( a );
	assert_true( pa.x > 3.5f && pa.x < 4.5f );
	// b walks 8 units left: its swept box reaches a's new place, not its old one.
	kcc_move_result r;
	assert_int_equal( kcc_controller_move_and_slide( b, kcc_v2( -8.0f / DT, 0.0f ), DT, NULL, &r ), KCC_OK );
	vec2s pb = kcc_controller_get_position( b );
	assert_true( pb.x > pa.x + 0.6f );
	assert_true( pb.x < pa.x + 0.6f + 2.0f * def.skin + 1e-3f );
	kcc_controller_destroy( a );
	kcc_controller_destroy( b );
	scene_destroy( s );
}

// Bodies removed and freed while pending (a destroyed character) are left alone by the sync; a new controller (its
// body perhaps at a freed one's address) is synced like any other.
static void test_deferred_sync_skips_removed_bodies( void** state )
{
	(void)state;
	world w;
	world_build( &w, SCENE_CROWD );
	assert_int_equal( kcc_space_set_deferred_sync( w.s->space, true ), KCC_OK );
	for ( int frame = 0; frame < 20; ++frame )
	{
		world_step( &w, frame );
		vec2s in[MAX_CHARACTERS];
		for ( int e = 0; e < w.count; ++e )
		{
			in[e] = world_input( &w, e, frame );
		}
		assert_int_equal( kcc_move_and_slide_batch( w.c, w.count, in, DT, NULL, NULL, NULL ), KCC_OK );
		if ( frame % 5 == 4 )
		{
			// Destroyed while pending, then a new character in its place.
			int i = frame / 5;
			kcc_controller_def def = test_character_def( TEST_CIRCLE, kcc_controller_get_position( w.c[i] ) );
			def.filter = cpShapeFilterNew( CP_NO_GROUP, CHARACTER_CATEGORY, CP_ALL_CATEGORIES );
			kcc_controller_destroy( w.c[i] );
			w.c[i] = kcc_controller_create( w.s->space, &def );
			assert_non_null( w.c[i] );
			if ( frame == 9 )
			{
				assert_int_equal( kcc_space_sync( w.s->space ), KCC_OK );
			}
		}
	}
	assert_int_equal( kcc_space_sync( w.s->space ), KCC_OK );
	assert_int_equal( characters_found( &w ), w.count );
	world_destroy( &w );
}

static void test_deferred_sync_bad_input( void** state )
{
	(void)state;
	reset_asserts();
	assert_int_equal( kcc_space_set_deferred_sync( NULL, true ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_space_set_deferred_sync", "NULL" );
	assert_int_equal( kcc_space_sync( NULL ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_space_sync", "NULL" );
	cpSpace* bare = cpSpaceNew();
	assert_int_equal( kcc_space_set_deferred_sync( bare, true ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_space_set_deferred_sync", "no controller" );
	assert_int_equal( kcc_space_sync( bare ), KCC_OK ); // nothing pending
	cpSpaceFree( bare );
	reset_asserts();
}

// ---------------------------------------------------------------------------------------------------------------
// Bad input: an error, and nothing moved.

static vec2s s_positions[MAX_CHARACTERS];

static void remember_positions( const world* w )
{
	for ( int i = 0; i < w->count; ++i )
	{
		s_positions[i] = kcc_controller_get_position( w->c[i] );
	}
}

static void assert_nothing_moved( const world* w )
{
	for ( int i = 0; i < w->count; ++i )
	{
		vec2s p = kcc_controller_get_position( w->c[i] );
		assert_memory_equal( &p, s_positions + i, sizeof( p ) );
	}
}

typedef struct locked_call
{
	world* w;
	vec2s* in;
	kcc_status status;
	bool called;
} locked_call;

static void batch_in_callback( cpShape* shape, void* data )
{
	(void)shape;
	locked_call* call = data;
	if ( call->called == false )
	{
		call->called = true;
		call->status = kcc_move_and_slide_batch( call->w->c, call->w->count, call->in, DT, NULL, NULL, NULL );
	}
}

static void test_bad_input_moves_nothing( void** state )
{
	(void)state;
	kcc_set_assert_fcn( record_assert );
	world w, other;
	world_build( &w, SCENE_CROWD );
	world_build( &other, SCENE_GHOSTS );
	vec2s in[MAX_CHARACTERS];
	for ( int i = 0; i < w.count; ++i )
	{
		in[i] = kcc_v2( WALK, -1.0f );
	}
	remember_positions( &w );
	kcc_controller* list[MAX_CHARACTERS];
	memcpy( list, w.c, sizeof( list ) );

	assert_int_equal( kcc_move_and_slide_batch( NULL, w.count, in, DT, NULL, NULL, NULL ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_move_and_slide_batch( list, w.count, NULL, DT, NULL, NULL, NULL ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_move_and_slide_batch( list, -1, in, DT, NULL, NULL, NULL ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, -DT, NULL, NULL, NULL ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, NAN, NULL, NULL, NULL ), KCC_ERROR_NOT_FINITE );
	// One bad entry, last: the others are not moved either.
	list[w.count - 1] = NULL;
	assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, NULL ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_move_and_slide_batch", "NULL" );
	list[w.count - 1] = other.c[0];
	assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, NULL ), KCC_ERROR_INVALID_ARGUMENT );
	expect_message( "kcc_move_and_slide_batch", "different spaces" );
	list[w.count - 1] = w.c[w.count - 1];
	// A bad velocity, last then first: on the calling thread alone, and checked on 2 and 3 workers (the batch's
	// first task), whose batches first ran well (the space's shapes then read on the workers too).
	scrambled_tasks st[2];
	kcc_task_system systems[2] = { scrambled_system( st, 2 ), scrambled_system( st + 1, 3 ) };
	for ( int k = 0; k < 3; ++k )
	{
		const kcc_task_system* tasks = k > 0 ? systems + k - 1 : NULL;
		for ( int bad = w.count - 1; bad >= 0; bad -= w.count - 1 )
		{
			in[bad] = kcc_v2( NAN, 0.0f );
			kcc_status status = kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, tasks );
			assert_int_equal( status, KCC_ERROR_NOT_FINITE );
			in[bad] = kcc_v2( 1.0e6f / DT, 0.0f ); // beyond max_displacement
			status = kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, tasks );
			assert_int_equal( status, KCC_ERROR_TOO_LARGE );
			in[bad] = kcc_v2( WALK, -1.0f );
			assert_nothing_moved( &w );
		}
		// A bad velocity first and a NULL controller, or one of another space, last: the controllers are checked
		// first, for any worker count.
		in[0] = kcc_v2( NAN, 0.0f );
		list[w.count - 1] = NULL;
		reset_asserts();
		assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, tasks ),
						  KCC_ERROR_NULL_ARGUMENT );
		expect_message( "kcc_move_and_slide_batch", "NULL" );
		list[w.count - 1] = other.c[0];
		reset_asserts();
		assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, tasks ),
						  KCC_ERROR_INVALID_ARGUMENT );
		expect_message( "kcc_move_and_slide_batch", "different spaces" );
		list[w.count - 1] = w.c[w.count - 1];
		in[0] = kcc_v2( WALK, -1.0f );
		assert_nothing_moved( &w );
		if ( tasks != NULL )
		{
			assert_true( st[k - 1].tasks > 0 );
			world_step( &w, 0 );
			assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, tasks ), KCC_OK );
			remember_positions( &w );
		}
	}

	// From a query callback: the space is locked.
	locked_call call = { &w, in, KCC_OK, false };
	reset_asserts();
	cpSpaceBBQuery( w.s->space, cpBBNew( -100.0, -100.0, 100.0, 100.0 ), CP_SHAPE_FILTER_ALL, batch_in_callback, &call );
	assert_true( call.called );
	assert_int_equal( call.status, KCC_ERROR_SPACE_LOCKED );
	expect_message( "kcc_move_and_slide_batch", "locked" );
	assert_nothing_moved( &w );

#if defined( KCC_ENABLE_ASSERT )
	// A destroyed controller (only builds with asserts can tell), never read: with workers too.
	kcc_controller* gone = other.c[other.count - 1];
	kcc_controller_destroy( gone );
	other.count -= 1;
	list[w.count - 1] = gone;
	for ( int k = 0; k < 3; ++k )
	{
		reset_asserts();
		assert_int_equal( kcc_move_and_slide_batch( list, w.count, in, DT, NULL, NULL, k > 0 ? systems + k - 1 : NULL ),
						  KCC_ERROR_NULL_ARGUMENT );
		expect_message( "kcc_move_and_slide_batch", "destroyed" );
		assert_nothing_moved( &w );
	}
#endif
	world_destroy( &w );
	world_destroy( &other );
	reset_asserts();
}

// ---------------------------------------------------------------------------------------------------------------
// Memory: the snapshot is kept per space and grown only when too small.

// Every batch after the first on a space of the same size: no allocation (deferred sync too: the pending list).
static void second_batch_allocates_nothing( bool deferred )
{
	world w;
	world_build( &w, SCENE_CROWD );
	if ( deferred )
	{
		assert_int_equal( kcc_space_set_deferred_sync( w.s->space, true ), KCC_OK );
	}
	vec2s in[MAX_CHARACTERS];
	for ( int i = 0; i < w.count; ++i )
	{
		in[i] = kcc_v2( i % 2 == 0 ? WALK : -WALK, -1.0f );
	}
	world_step( &w, 0 );
	assert_int_equal( kcc_move_and_slide_batch( w.c, w.count, in, DT, NULL, NULL, NULL ), KCC_OK );
	int after_first = s_hook_allocs;
	for ( int frame = 1; frame < 30; ++frame )
	{
		world_step( &w, frame );
		assert_int_equal( kcc_move_and_slide_batch( w.c, w.count, in, DT, NULL, NULL, NULL ), KCC_OK );
	}
	assert_int_equal( s_hook_allocs, after_first );
	world_destroy( &w );
}

static void test_second_batch_allocates_nothing( void** state )
{
	(void)state;
	for ( int deferred = 0; deferred < 2; ++deferred )
	{
		hooks_reset();
		kcc_set_allocator( hook_alloc, hook_free, NULL );
		second_batch_allocates_nothing( deferred != 0 );
		kcc_set_allocator( NULL, NULL, NULL );
	}
}

// A single call after a deferred batch syncs without allocating, even when the game added bodies meanwhile (more than
// the batch's snapshot has room for): it then reindexes every non-static body, and still finds what the batch moved.
static void test_sync_inside_a_move_allocates_nothing( void** state )
{
	(void)state;
	kcc_controller_def def;
	kcc_controller *a, *b;
	scene* s = deferred_pair( &def, &a, &b );
	enum { ADDED = 300 };
	cpBody* bodies[ADDED];
	cpShape* shapes[ADDED];
	for ( int i = 0; i < ADDED; ++i )
	{
		bodies[i] = cpSpaceAddBody( s->space, cpBodyNewKinematic() );
		cpBodySetPosition( bodies[i], cpv( -30.0 + 0.1 * i, 40.0 ) );
		shapes[i] = cpSpaceAddShape( s->space, cpBoxShapeNew( bodies[i], 0.05, 0.05, 0.0 ) );
	}
	hooks_reset();
	kcc_set_allocator( hook_alloc, hook_free, NULL );
	vec2s pa = kcc_controller_get_position( a );
	assert_int_equal( kcc_controller_move_and_slide( b, kcc_v2( -8.0f / DT, 0.0f ), DT, NULL, NULL ), KCC_OK );
	assert_int_equal( s_hook_allocs, 0 );
	kcc_set_allocator( NULL, NULL, NULL );
	vec2s pb = kcc_controller_get_position( b );
	assert_true( pb.x > pa.x + 0.6f && pb.x < pa.x + 0.6f + 2.0f * def.skin + 1e-3f );
	for ( int i = 0; i < ADDED; ++i )
	{
		cpSpaceRemoveShape( s->space, shapes[i] );
		cpShapeFree( shapes[i] );
		cpSpaceRemoveBody( s->space, bodies[i] );
		cpBodyFree( bodies[i] );
	}
	kcc_controller_destroy( a );
	kcc_controller_destroy( b );
	scene_destroy( s );
}

int main( void )
{
	kcc_set_assert_fcn( record_assert );
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_ghosts_match_sequential_calls ),
		cmocka_unit_test( test_crowd_matches_sequential_calls ),
		cmocka_unit_test( test_topdown_matches_sequential_calls ),
		cmocka_unit_test( test_same_character_twice ),
		cmocka_unit_test( test_subsets_match_sequential_calls ),
		cmocka_unit_test( test_scrambled_workers_match_sequential_calls ),
		cmocka_unit_test( test_threads_match_sequential_calls ),
		cmocka_unit_test( test_bad_input_moves_nothing ),
		cmocka_unit_test( test_second_batch_allocates_nothing ),
		cmocka_unit_test( test_deferred_sync_matches_sequential_calls ),
		cmocka_unit_test( test_deferred_index_waits_for_sync ),
		cmocka_unit_test( test_single_call_after_deferred_batch_syncs ),
		cmocka_unit_test( test_deferred_sync_skips_removed_bodies ),
		cmocka_unit_test( test_deferred_sync_bad_input ),
		cmocka_unit_test( test_sync_inside_a_move_allocates_nothing ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
