// SPDX-License-Identifier: MIT
// Chipmunk's spatial hash keeps a dead entry in every cell a moved shape covered until a query walks that cell. The
// moves clear the character's own (its next query walks them): a character running, or teleported on and on, for
// thousands of steps leaves Chipmunk's memory as it was once warmed up. Chipmunk's default tree sees the character
// where each move left it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <cmocka.h>
#include "../controller/internal.h"
#include "controller_scene.h"

// Bytes the whole process holds on the heap, Chipmunk's included (a shared library: its allocations are not counted
// by alloc_count.h's wrappers).
#if defined( __has_feature )
#if __has_feature( address_sanitizer )
#define TEST_ASAN 1
#endif
#endif
#if defined( __SANITIZE_ADDRESS__ ) || defined( TEST_ASAN )
size_t __sanitizer_get_current_allocated_bytes( void ); // AddressSanitizer's runtime (its header is not always there)
static size_t heap_bytes( void )
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
#include <malloc.h>
static size_t heap_bytes( void )
{
	return mallinfo2().uordblks;
}
#endif

// How the character moves: single calls, batches (reindexed when they return), or deferred batches each followed by
// kcc_space_sync.
typedef enum how
{
	SINGLE,
	BATCH,
	SYNCED,
} how;

// What the character does: RUN right, one unit a step (farther than its own width: its next query does not reach the
// cells it left), never back over them; TELEPORT: walk, and be put 1.5 units further on before each step (its next
// query is then too far from the cells it left to cover them: they are cleared apart); JITTER: walk back and forth by
// a twentieth of a unit (the same cells again and again).
typedef enum motion
{
	RUN,
	TELEPORT,
	JITTER,
} motion;

// A long floor in a spatial hash of unit cells and a capsule moving on it with gravity. Batches have no query of the
// character's own that would clear the cells it left: they are cleared apart.
static int64_t run( how mode, motion what, int steps, int warm_up )
{
	bool teleport = what == TELEPORT;
	cpSpace* space = cpSpaceNew();
	cpSpaceUseSpatialHash( space, 1.0, 4096 );
	cpShape* floor = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( -200.0, -1.0, 8000.0, 0.0 ), 0.0 );
	assert_int_equal( kcc_space_add_static_shapes( space, &floor, 1 ), KCC_OK );
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( -195.0f, 0.61f ) );
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	assert_int_equal( kcc_space_set_deferred_sync( space, mode == SYNCED ), KCC_OK );
	vec2s v = kcc_v2( 0.0f, 0.0f );
	size_t before = 0;
	for ( int step = 0; step < steps; ++step )
	{
		if ( step == warm_up )
		{
			before = heap_bytes();
		}
		if ( teleport )
		{
			vec2s p = kcc_controller_get_position( c );
			assert_int_equal( kcc_controller_set_position( c, kcc_v2( p.x + 1.5f, 0.61f ) ), KCC_OK );
		}
		v.x = what == RUN ? 60.0f : ( what == TELEPORT ? 6.0f : ( step % 2 == 0 ? 3.0f : -3.0f ) );
		v.y -= 0.5f;
		if ( mode == SINGLE )
		{
			assert_int_equal( kcc_controller_move_and_slide( c, v, 1.0f / 60.0f, &v, NULL ), KCC_OK );
		}
		else
		{
			kcc_controller* one[1] = { c };
			vec2s out[1];
			assert_int_equal( kcc_move_and_slide_batch( one, 1, &v, 1.0f / 60.0f, out, NULL, NULL ), KCC_OK );
			v = out[0];
			if ( mode == SYNCED )
			{
				assert_int_equal( kcc_space_sync( space ), KCC_OK );
			}
		}
	}
	int64_t grown = (int64_t)heap_bytes() - (int64_t)before;
	vec2s p = kcc_controller_get_position( c );
	const char* names[] = { "single calls", "batches", "synced batches" };
	const char* motions[] = { "running", "teleported", "jittering" };
	print_message( "%s, %s: %d steps, ended at (%.2f, %.2f), heap grown by %lld bytes after step %d\n", names[mode],
				   motions[what], steps, (double)p.x, (double)p.y, (long long)grown, warm_up );
	if ( what == JITTER )
	{
		assert_true( p.x > -195.1f && p.x < -194.9f ); // in place: the same few cells every step
	}
	else
	{
		assert_true( p.x > 1500.0f ); // it went far: thousands of cells left behind
	}
	assert_true( p.y > 0.5f && p.y < 0.7f ); // on the floor all along
	kcc_controller_destroy( c );
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	cpSpaceFree( space );
	return grown;
}

static void test_running_leaves_the_hash_clean( void** state )
{
	(void)state;
	for ( int mode = SINGLE; mode <= SYNCED; ++mode )
	{
		assert_true( run( (how)mode, RUN, 4000, 800 ) < 8192 );
	}
}

static void test_teleports_leave_the_hash_clean( void** state )
{
	(void)state;
	for ( int mode = SINGLE; mode <= SYNCED; ++mode )
	{
		assert_true( run( (how)mode, TELEPORT, 4000, 800 ) < 8192 );
	}
}

static void test_jitters_leave_the_hash_clean( void** state )
{
	(void)state;
	for ( int mode = SINGLE; mode <= SYNCED; ++mode )
	{
		assert_true( run( (how)mode, JITTER, 4000, 800 ) < 8192 );
	}
}

typedef struct found
{
	const cpShape* wanted;
	bool seen;
} found;

static void note_shape( cpShape* shape, void* data )
{
	found* f = data;
	f->seen |= shape == f->wanted;
}

// Whether Chipmunk's query of a box 0.2 units wide around point finds the character's shape.
static bool query_finds( cpSpace* space, kcc_controller* c, vec2s point )
{
	found f = { kcc_controller_get_shape( c ), false };
	cpBB box = cpBBNewForExtents( cpv( point.x, point.y ), 0.1, 0.1 );
	cpSpaceBBQuery( space, box, CP_SHAPE_FILTER_ALL, note_shape, &f );
	return f.seen;
}

// What the game sees of a character in Chipmunk's default tree after each move (single calls, then batches): its shape
// where it is and not where it was, its body with no velocity (cpSpaceStep leaves it in place), also after teleports,
// long falls and turns. The moves give the tree's leaf room for the next moves (kcc_world_reindex_character).
static void test_the_tree_sees_the_character_where_it_is( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew(); // Chipmunk's default bounding box tree
	cpShape* floor = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( -200.0, -1.0, 200.0, 0.0 ), 0.0 );
	assert_int_equal( kcc_space_add_static_shapes( space, &floor, 1 ), KCC_OK );
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( -150.0f, 0.61f ) );
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	cpBody* body = kcc_controller_get_body( c );
	vec2s v = kcc_v2( 0.0f, 0.0f );
	float dt = 1.0f / 60.0f;
	for ( int step = 0; step < 1200; ++step )
	{
		vec2s before = kcc_controller_get_position( c );
		if ( step % 100 == 50 )
		{
			// Teleported up and along: it falls back onto the floor over the next steps.
			before = kcc_v2( before.x + 7.0f, 6.0f );
			assert_int_equal( kcc_controller_set_position( c, before ), KCC_OK );
			assert_true( query_finds( space, c, before ) );
		}
		// Back and forth at 3 to 12 units a second, jumping now and then.
		v.x = ( step / 150 ) % 2 == 0 ? 3.0f + (float)( step % 7 ) * 1.5f : -6.0f;
		v.y = step % 90 == 0 ? 10.0f : v.y - 30.0f * dt;
		if ( step < 600 )
		{
			assert_int_equal( kcc_controller_move_and_slide( c, v, dt, &v, NULL ), KCC_OK );
		}
		else
		{
			kcc_controller* one[1] = { c };
			vec2s out[1];
			assert_int_equal( kcc_move_and_slide_batch( one, 1, &v, dt, out, NULL, NULL ), KCC_OK );
			v = out[0];
		}
		vec2s p = kcc_controller_get_position( c );
		assert_true( query_finds( space, c, p ) );
		if ( fabsf( p.x - before.x ) > 0.8f || fabsf( p.y - before.y ) > 1.8f )
		{
			assert_false( query_finds( space, c, before ) ); // farther than its own size: not where it was
		}
		cpVect velocity = cpBodyGetVelocity( body );
		assert_true( velocity.x == 0.0 && velocity.y == 0.0 );
		if ( step % 10 == 0 )
		{
			cpSpaceStep( space, dt );
			cpVect q = cpBodyGetPosition( body );
			assert_true( q.x == (double)p.x && q.y == (double)p.y );
			assert_true( query_finds( space, c, p ) );
		}
	}
	kcc_controller_destroy( c );
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_running_leaves_the_hash_clean ),
		cmocka_unit_test( test_teleports_leave_the_hash_clean ),
		cmocka_unit_test( test_jitters_leave_the_hash_clean ),
		cmocka_unit_test( test_the_tree_sees_the_character_where_it_is ),
	};
	return cmocka_run_group_tests_name( "controller_index_upkeep", tests, NULL, NULL );
}
