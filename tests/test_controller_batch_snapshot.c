// SPDX-License-Identifier: MIT
// The batch's snapshot on its own, on a real cpSpace: which pending shapes a read keeps (those whose body is still in
// the space and holds them, whatever their hints say, in their order, hints then pointing where they are found).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../controller/internal.h"

#define BODIES 5

typedef struct space_fixture
{
	cpSpace* space;
	cpBody* bodies[BODIES];
	cpShape* shapes[BODIES + 1]; // one per body, and a second one on body 2
} space_fixture;

static void fixture_build( space_fixture* f )
{
	f->space = cpSpaceNew();
	for ( int i = 0; i < BODIES; ++i )
	{
		f->bodies[i] = cpSpaceAddBody( f->space, cpBodyNewKinematic() );
		cpBodySetPosition( f->bodies[i], cpv( 3.0 * i, 0.0 ) );
		f->shapes[i] = cpSpaceAddShape( f->space, cpBoxShapeNew( f->bodies[i], 1.0, 1.0, 0.0 ) );
	}
	f->shapes[BODIES] = cpSpaceAddShape( f->space, cpCircleShapeNew( f->bodies[2], 0.5, cpvzero ) );
}

static void fixture_remove_body( space_fixture* f, int i )
{
	for ( int k = 0; k <= BODIES; ++k )
	{
		if ( f->shapes[k] != NULL && cpShapeGetBody( f->shapes[k] ) == f->bodies[i] )
		{
			cpSpaceRemoveShape( f->space, f->shapes[k] );
			cpShapeFree( f->shapes[k] );
			f->shapes[k] = NULL;
		}
	}
	cpSpaceRemoveBody( f->space, f->bodies[i] );
	cpBodyFree( f->bodies[i] );
	f->bodies[i] = NULL;
}

static void fixture_destroy( space_fixture* f )
{
	for ( int i = 0; i < BODIES; ++i )
	{
		if ( f->bodies[i] != NULL )
		{
			fixture_remove_body( f, i );
		}
	}
	cpSpaceFree( f->space );
}

static kcc_snapshot* snapshot_new( void )
{
	kcc_snapshot* s = kcc_alloc( sizeof( *s ) );
	assert_non_null( s );
	memset( s, 0, sizeof( *s ) );
	return s;
}

static int shape_index( const kcc_snapshot* s, const cpShape* shape )
{
	for ( int i = 0; i < s->shape_count; ++i )
	{
		if ( s->shapes[i].shape == shape )
		{
			return i;
		}
	}
	return -1;
}

// The pending list holds exactly expected (in order, boxes unchanged), each hint points at its body and shape, and
// the bodies flagged pending are those of the list.
static void check_pending( const kcc_snapshot* s, const kcc_pending_shape* expected, int count )
{
	assert_int_equal( s->pending_count, count );
	for ( int k = 0; k < count; ++k )
	{
		const kcc_pending_shape* p = s->pending + k;
		assert_ptr_equal( p->body, expected[k].body );
		assert_ptr_equal( p->shape, expected[k].shape );
		assert_memory_equal( &p->indexed, &expected[k].indexed, sizeof( cpBB ) );
		assert_true( p->body_hint >= 0 && p->body_hint < s->body_count );
		assert_ptr_equal( s->bodies[p->body_hint].body, p->body );
		assert_true( p->shape_hint >= 0 && p->shape_hint < s->shape_count );
		assert_ptr_equal( s->shapes[p->shape_hint].shape, p->shape );
		assert_int_equal( s->shapes[p->shape_hint].body, p->body_hint );
	}
	for ( int b = 0; b < s->body_count; ++b )
	{
		bool listed = false;
		for ( int k = 0; k < count; ++k )
		{
			listed |= expected[k].body == s->bodies[b].body;
		}
		assert_int_equal( s->bodies[b].pending, listed );
	}
}

// Pending shapes with right, wrong, missing and out-of-range hints: a read keeps those still on their bodies in the
// space, in order, and drops a body never in the space and a shape its body does not hold; after a body's removal
// (the space lists its bodies anew) the next read keeps the rest again.
static void test_pending_shapes_kept_whatever_their_hints( void** state )
{
	(void)state;
	space_fixture f;
	fixture_build( &f );
	cpBody* gone = cpBodyNewKinematic(); // never in the space
	cpShape* gone_shape = cpBoxShapeNew( gone, 1.0, 1.0, 0.0 );
	cpShape* stray = cpCircleShapeNew( f.bodies[0], 0.3, cpvzero ); // names body 0, which does not hold it
	kcc_snapshot* s = snapshot_new();
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	assert_int_equal( s->body_count, BODIES );
	int at[BODIES], shape_at[BODIES + 1];
	for ( int i = 0; i < BODIES; ++i )
	{
		at[i] = kcc_snapshot_body_index( s, f.bodies[i] );
		assert_true( at[i] >= 0 );
	}
	for ( int i = 0; i <= BODIES; ++i )
	{
		shape_at[i] = shape_index( s, f.shapes[i] );
		assert_true( shape_at[i] >= 0 );
	}
	kcc_snapshot_spent( s );
	// Hints: right; at the body's other shape; at another body's; none; out of range. Two entries name a body never in
	// the space and a shape its body does not hold.
	kcc_pending_shape list[] = {
		{ f.bodies[1], f.shapes[1], cpBBNew( 1.0, 1.0, 2.0, 2.0 ), at[1], shape_at[1] },
		{ f.bodies[2], f.shapes[BODIES], cpBBNew( 2.0, 2.0, 3.0, 3.0 ), at[2], shape_at[2] },
		{ f.bodies[3], f.shapes[3], cpBBNew( 3.0, 3.0, 4.0, 4.0 ), at[4], shape_at[4] },
		{ gone, gone_shape, cpBBNew( 4.0, 4.0, 5.0, 5.0 ), at[0], shape_at[0] },
		{ f.bodies[4], f.shapes[4], cpBBNew( 5.0, 5.0, 6.0, 6.0 ), -1, -1 },
		{ f.bodies[0], stray, cpBBNew( 6.0, 6.0, 7.0, 7.0 ), at[0], shape_at[0] },
		{ f.bodies[0], f.shapes[0], cpBBNew( 7.0, 7.0, 8.0, 8.0 ), BODIES + 3, BODIES + 9 },
		{ f.bodies[2], f.shapes[2], cpBBNew( 8.0, 8.0, 9.0, 9.0 ), at[2], shape_at[BODIES] },
	};
	int count = (int)( sizeof( list ) / sizeof( list[0] ) );
	assert_true( kcc_reserve( (void**)&s->pending, &s->pending_capacity, count, sizeof( *s->pending ) ) );
	memcpy( s->pending, list, sizeof( list ) );
	s->pending_count = count;
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	kcc_pending_shape kept[] = { list[0], list[1], list[2], list[4], list[6], list[7] };
	check_pending( s, kept, 6 );
	kcc_snapshot_spent( s );
	// Body 1 leaves the space (Chipmunk moves its last body into its place): the rest are found where they now are.
	fixture_remove_body( &f, 1 );
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	check_pending( s, kept + 1, 5 );
	kcc_snapshot_spent( s );
	s->pending_count = 0;
	kcc_snapshot_free( s );
	cpShapeFree( stray );
	cpShapeFree( gone_shape );
	cpBodyFree( gone );
	fixture_destroy( &f );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_pending_shapes_kept_whatever_their_hints ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
