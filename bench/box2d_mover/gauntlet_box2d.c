// SPDX-License-Identifier: MIT
// The gauntlet (bench/gauntlet/SCENE.md) moved by Box2D v3's character mover instead of kcc2d: the same level,
// the same 1,000 capsules and the same motion rule, each move being the mover loop of Box2D's character sample
// (collide planes, solve planes, cast, up to 5 rounds, then clip the velocity against the planes). Prints moves per
// second (median of the runs) and the quality figures, measured from the recorded positions as bench/gauntlet does.
// Built only when Box2D is given to CMake (bench/box2d_mover/README.md); Box2D's code is never part of kcc2d.
//
//   gauntlet_box2d [level.txt] [--runs N] [--steps N] [--traj FILE] [--rebuild]
//
// --rebuild rebuilds Box2D's static tree once after the level is made (b2World_RebuildStaticTree) instead of
// keeping the tree the shape insertions built.
#define _POSIX_C_SOURCE 199309L // clock_gettime( CLOCK_MONOTONIC ) under -std=c11

#include "../bench_common.h"
// The shared headers' messages name this program.
#define GAUNTLET_PROGRAM "gauntlet_box2d"
#include "../gauntlet/gauntlet_level.h"
#include "../gauntlet/gauntlet_measure.h"
#include "../gauntlet/gauntlet_runs.h"
#include "../gauntlet/gauntlet_walker.h"

#include "box2d/box2d.h"

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The mover loop's settings, as in Box2D's character sample: 5 rounds, stop when a round moves less than 1 cm,
// at most 8 planes a round.
#define MOVER_ROUNDS 5
#define MOVER_TOLERANCE 0.01f
#define PLANE_CAPACITY 8

// A floor is a plane within 45 degrees of up, kcc2d's default max_floor_angle (the ramps are exactly 45 degrees).
#define FLOOR_COSINE ( 0.70710678f - 1.0e-5f )

// Tiles are static; the movers are not shapes at all, so they never block each other.
#define CATEGORY_TILE 0x1u
#define CATEGORY_MOVER 0x2u

// Every tile its own polygon shape (no merging: the seams are part of the test), on one static body.
static b2WorldId world_create( const gauntlet_level* lv, bool rebuild )
{
	b2WorldDef world_def = b2DefaultWorldDef();
	b2WorldId world = b2CreateWorld( &world_def );
	b2BodyDef body_def = b2DefaultBodyDef(); // static
	b2BodyId ground = b2CreateBody( world, &body_def );
	b2ShapeDef shape_def = b2DefaultShapeDef();
	shape_def.filter.categoryBits = CATEGORY_TILE;
	shape_def.filter.maskBits = CATEGORY_MOVER;
	for ( int i = 0; i < lv->tile_count; ++i )
	{
		const gauntlet_tile* t = &lv->tiles[i];
		b2Polygon polygon;
		if ( t->kind == GAUNTLET_TILE_BOX )
		{
			polygon = b2MakeOffsetBox( 0.5f, 0.5f, (b2Vec2){ (float)t->x + 0.5f, (float)t->y + 0.5f }, b2Rot_identity );
		}
		else
		{
			gauntlet_dvec corners[4];
			int count = gauntlet_tile_vertices( t, corners );
			b2Vec2 points[3];
			for ( int k = 0; k < count; ++k )
			{
				points[k] = (b2Vec2){ (float)corners[k].x, (float)corners[k].y };
			}
			b2Hull hull = b2ComputeHull( points, count );
			polygon = b2MakePolygon( &hull, 0.0f );
		}
		b2CreatePolygonShape( ground, &shape_def, &polygon );
	}
	if ( rebuild )
	{
		b2World_RebuildStaticTree( world );
	}
	return world;
}

typedef struct plane_list
{
	b2CollisionPlane planes[PLANE_CAPACITY];
	int count;
} plane_list;

// Rigid planes (no push limit), all clipping the velocity: the sample's settings for plain static ground.
static bool collect_plane( b2ShapeId shape, const b2PlaneResult* result, void* context )
{
	(void)shape;
	plane_list* list = (plane_list*)context;
	if ( list->count < PLANE_CAPACITY )
	{
		list->planes[list->count++] = (b2CollisionPlane){ result->plane, FLT_MAX, 0.0f, true };
	}
	return true;
}

typedef struct mover_result
{
	b2Vec2 position;
	b2Vec2 velocity;
	bool on_ground;
} mover_result;

// One move: the mover loop of Box2D's character sample. Each round gathers the planes the capsule touches where it
// is, solves them for the rest of the way to the target, and casts that far. The velocity is clipped against the
// last round's planes, and a floor among them is the ground.
static mover_result move_character( b2WorldId world, b2Vec2 position, b2Vec2 velocity, float dt )
{
	const b2QueryFilter filter = { CATEGORY_MOVER, CATEGORY_TILE };
	b2Vec2 target = b2MulAdd( position, dt, velocity );
	plane_list list;
	list.count = 0;
	for ( int round = 0; round < MOVER_ROUNDS; ++round )
	{
		list.count = 0;
		float half = (float)GAUNTLET_CAPSULE_HALF;
		b2Capsule capsule = { { position.x, position.y - half }, { position.x, position.y + half },
							  (float)GAUNTLET_CAPSULE_RADIUS };
#ifdef KCC_BOX2D_MOVER_ORIGIN
		// Box2D 3.2's queries take an origin for large worlds; near it, a world capsule and the zero origin.
		b2World_CollideMover( world, b2Pos_zero, &capsule, filter, collect_plane, &list );
		b2Vec2 wanted = b2SolvePlanes( b2Sub( target, position ), list.planes, list.count ).delta;
		float fraction = b2World_CastMover( world, b2Pos_zero, &capsule, wanted, filter );
#else
		b2World_CollideMover( world, &capsule, filter, collect_plane, &list );
		b2Vec2 wanted = b2SolvePlanes( b2Sub( target, position ), list.planes, list.count ).translation;
		float fraction = b2World_CastMover( world, &capsule, wanted, filter );
#endif
		b2Vec2 delta = b2MulSV( fraction, wanted );
		position = b2Add( position, delta );
		if ( b2LengthSquared( delta ) < MOVER_TOLERANCE * MOVER_TOLERANCE )
		{
			break;
		}
	}
	mover_result out = { position, b2ClipVector( velocity, list.planes, list.count ), false };
	for ( int k = 0; k < list.count; ++k )
	{
		out.on_ground = out.on_ground || list.planes[k].plane.normal.y >= FLOOR_COSINE;
	}
	return out;
}

typedef struct run_output
{
	double seconds;
	double cpu;
	int on_ground_at_end;
} run_output;

// One run: fresh world, the SCENE.md motion, positions recorded into frames ((steps + 1) * n * 2 floats).
static run_output run_once( const gauntlet_level* lv, int n, int steps, bool rebuild, float* frames )
{
	b2WorldId world = world_create( lv, rebuild );
	b2Vec2* position = (b2Vec2*)malloc( sizeof( b2Vec2 ) * (size_t)n );
	b2Vec2* velocity = (b2Vec2*)calloc( (size_t)n, sizeof( b2Vec2 ) );
	gauntlet_walker* walkers = (gauntlet_walker*)calloc( (size_t)n, sizeof( gauntlet_walker ) );
	bool* on_ground = (bool*)calloc( (size_t)n, sizeof( bool ) );
	for ( int i = 0; i < n; ++i )
	{
		position[i] = (b2Vec2){ lv->spawns[i].x, lv->spawns[i].y };
		frames[2 * i] = position[i].x;
		frames[2 * i + 1] = position[i].y;
	}
	run_output out = { 0 };
	double start = now_seconds();
	double cpu_start = cpu_seconds();
	for ( int step = 0; step < steps; ++step )
	{
		float* frame = frames + (size_t)( step + 1 ) * (size_t)n * 2;
		for ( int i = 0; i < n; ++i )
		{
			gauntlet_vec2 last = { velocity[i].x, velocity[i].y };
			gauntlet_vec2 v = gauntlet_walker_velocity( &walkers[i], i, step, last, on_ground[i] );
			mover_result moved = move_character( world, position[i], (b2Vec2){ v.x, v.y }, GAUNTLET_DT );
			position[i] = moved.position;
			velocity[i] = moved.velocity;
			on_ground[i] = moved.on_ground;
			frame[2 * i] = moved.position.x;
			frame[2 * i + 1] = moved.position.y;
		}
	}
	out.seconds = now_seconds() - start;
	out.cpu = cpu_seconds() - cpu_start;
	for ( int i = 0; i < n; ++i )
	{
		out.on_ground_at_end += on_ground[i] ? 1 : 0;
	}
	free( position );
	free( velocity );
	free( walkers );
	free( on_ground );
	b2DestroyWorld( world );
	return out;
}

int main( int argc, char** argv )
{
	gauntlet_options o = gauntlet_default_options();
	bool rebuild = false;
	for ( int i = 1; i < argc; ++i )
	{
		if ( gauntlet_option( &o, argc, argv, &i ) )
		{
			continue;
		}
		if ( strcmp( argv[i], "--rebuild" ) == 0 )
		{
			rebuild = true;
		}
		else
		{
			fprintf( stderr, "usage: %s [level.txt] [--runs N] [--steps N] [--traj FILE] [--rebuild]\n", argv[0] );
			return 2;
		}
	}
	if ( o.runs < 1 || o.runs > GAUNTLET_MAX_RUNS || o.steps < 1 )
	{
		fprintf( stderr, "gauntlet_box2d: runs must be 1..%d, steps >= 1\n", GAUNTLET_MAX_RUNS );
		return 2;
	}
	gauntlet_level lv;
	if ( gauntlet_measure_self_check() == false || gauntlet_level_load( o.level_path, &lv ) == false )
	{
		return 1;
	}
	int n = lv.spawn_count, steps = o.steps;
	gauntlet_runs runs;
	if ( gauntlet_runs_create( &runs, n, steps ) == false )
	{
		return 1;
	}
	b2Version version = b2GetVersion();
	printf( "gauntlet_box2d: %s, %d x %d, %d tiles, %d characters, %d steps, %d runs, Box2D %d.%d.%d mover, "
			"static tree %s\n",
			o.level_path, lv.width, lv.height, lv.tile_count, n, steps, o.runs, version.major, version.minor,
			version.revision, rebuild ? "rebuilt" : "as inserted" );

	run_output first = { 0 };
	for ( int r = 0; r < o.runs; ++r )
	{
		run_output out = run_once( &lv, n, steps, rebuild, gauntlet_runs_frames( &runs ) );
		if ( r == 0 )
		{
			first = out;
		}
		gauntlet_runs_add( &runs, out.seconds, out.cpu );
	}
	gauntlet_quality q = gauntlet_measure_quality( &lv, n, steps, runs.first_frames );

	gauntlet_runs_print_rates( &runs );
	gauntlet_quality_print( &q );
	printf( "characters on the ground at the end: %d\n", first.on_ground_at_end );
	gauntlet_runs_print_identical( &runs );

	bool written = gauntlet_runs_write_trajectory( &runs, o.traj_path );
	gauntlet_runs_destroy( &runs );
	gauntlet_level_free( &lv );
	return written ? 0 : 1;
}
