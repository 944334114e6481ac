// SPDX-License-Identifier: MIT
// One push into a row of crates: a floor, kinematic boxes 0.98 wide and 1.0 apart from x = 2 (pushable), the default
// capsule at (1.19, 0.61), one kcc_controller_move of (length, 0). Prints the time of that one move (the best of a
// few runs, each on a fresh world), the crates it moved and how far the character went, for rows of 9, 40 and 200
// crates and pushes of 1, 3, 10 and 30.
//   bench_push [runs]    default 20
#define _POSIX_C_SOURCE 199309L // clock_gettime( CLOCK_MONOTONIC ) under -std=c11
#include "kcc/controller.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_CRATES 200

static double now_seconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

typedef struct row_result
{
	double seconds;
	int moved;
	float travel;
} row_result;

static row_result push_row( int count, float length )
{
	cpSpace* space = cpSpaceNew();
	cpBB floor_box = cpBBNew( -10.0, -1.0, 2.0 * count + 40.0, 0.0 );
	cpShape* floor = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), floor_box, 0.0 );
	cpShapeSetFilter( floor, cpShapeFilterNew( CP_NO_GROUP, 1u, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( space, floor );
	cpShape* crates[MAX_CRATES];
	for ( int i = 0; i < count; ++i )
	{
		cpBody* body = cpSpaceAddBody( space, cpBodyNewKinematic() );
		cpBodySetPosition( body, cpv( 2.0 + i, 0.5 ) );
		crates[i] = cpBoxShapeNew( body, 0.98, 0.98, 0.0 );
		cpShapeSetFilter( crates[i], cpShapeFilterNew( CP_NO_GROUP, 4u, CP_ALL_CATEGORIES ) );
		cpSpaceAddShape( space, crates[i] );
	}
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 1.19f, 0.61f );
	def.pushable_categories = 4u;
	kcc_controller* c = kcc_controller_create( space, &def );
	kcc_move_result r;
	double start = now_seconds();
	kcc_controller_move( c, kcc_v2( length, 0.0f ), &r );
	row_result result = { now_seconds() - start, 0, r.displacement.x };
	for ( int i = 0; i < count; ++i )
	{
		result.moved += cpBodyGetPosition( cpShapeGetBody( crates[i] ) ).x != 2.0 + i;
	}
	kcc_controller_destroy( c );
	for ( int i = 0; i < count; ++i )
	{
		cpBody* body = cpShapeGetBody( crates[i] );
		cpSpaceRemoveShape( space, crates[i] );
		cpShapeFree( crates[i] );
		cpSpaceRemoveBody( space, body );
		cpBodyFree( body );
	}
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	cpSpaceFree( space );
	return result;
}

int main( int argc, char** argv )
{
	int runs = argc > 1 ? atoi( argv[1] ) : 20;
	runs = runs < 1 ? 1 : runs;
	const int rows[] = { 9, 40, 200 };
	const float lengths[] = { 1.0f, 3.0f, 10.0f, 30.0f };
	printf( "push into a row of crates (KCC_MAX_PUSHED_BODIES %d), best of %d runs\n", KCC_MAX_PUSHED_BODIES, runs );
	for ( size_t r = 0; r < sizeof( rows ) / sizeof( rows[0] ); ++r )
	{
		for ( size_t l = 0; l < sizeof( lengths ) / sizeof( lengths[0] ); ++l )
		{
			row_result best = push_row( rows[r], lengths[l] );
			for ( int i = 1; i < runs; ++i )
			{
				row_result next = push_row( rows[r], lengths[l] );
				best.seconds = next.seconds < best.seconds ? next.seconds : best.seconds;
			}
			printf( "  row of %3d, push %4g: %8.3f ms, %3d crates moved, the character moved %.6f\n", rows[r],
					(double)lengths[l], 1.0e3 * best.seconds, best.moved, (double)best.travel );
		}
	}
	return 0;
}
