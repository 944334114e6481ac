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
#include "../gauntlet/prng.h"

#include "box2d/box2d.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef KCC_LEVEL_DIR
#define KCC_LEVEL_DIR "."
#endif

#define SEED 2024u
#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define MAX_SPEED 6.0f
#define JUMP_SPEED 10.0f
#define MAX_RUNS 64

// SCENE.md's capsule, in double for the overlap measure (the mover gets them as floats).
#define CAPSULE_HALF 0.3
#define CAPSULE_RADIUS 0.3

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

typedef enum tile_kind
{
	TILE_BOX,
	TILE_RAMP_RIGHT, // (x,y), (x+1,y), (x+1,y+1)
	TILE_RAMP_LEFT,  // (x,y), (x+1,y), (x,y+1)
} tile_kind;

typedef struct tile
{
	int x, y;
	tile_kind kind;
} tile;

typedef struct level
{
	int width, height;
	tile* tiles;
	int tile_count;
	b2Vec2* spawns;
	int spawn_count;
	int* grid; // width * height cells: index of the tile in that cell, -1 when empty
} level;

// The parser rules of bench/gauntlet/gauntlet.c: "W H", then "B|R|L x y" tiles and "C x y" spawns.
static bool load_level( const char* path, level* out )
{
	FILE* file = fopen( path, "r" );
	if ( file == NULL )
	{
		fprintf( stderr, "gauntlet_box2d: cannot open %s\n", path );
		return false;
	}
	memset( out, 0, sizeof( *out ) );
	if ( fscanf( file, "%d %d", &out->width, &out->height ) != 2 || out->width <= 0 || out->height <= 0 )
	{
		fprintf( stderr, "gauntlet_box2d: bad header in %s\n", path );
		fclose( file );
		return false;
	}
	int tile_capacity = 16384, spawn_capacity = 2048;
	out->tiles = (tile*)malloc( sizeof( tile ) * (size_t)tile_capacity );
	out->spawns = (b2Vec2*)malloc( sizeof( b2Vec2 ) * (size_t)spawn_capacity );
	out->grid = (int*)malloc( sizeof( int ) * (size_t)out->width * (size_t)out->height );
	if ( out->tiles == NULL || out->spawns == NULL || out->grid == NULL )
	{
		fclose( file );
		return false;
	}
	for ( int i = 0; i < out->width * out->height; ++i )
	{
		out->grid[i] = -1;
	}
	char kind;
	float a, b;
	while ( fscanf( file, " %c %f %f", &kind, &a, &b ) == 3 )
	{
		if ( kind == 'C' )
		{
			if ( out->spawn_count == spawn_capacity )
			{
				spawn_capacity *= 2;
				out->spawns = (b2Vec2*)realloc( out->spawns, sizeof( b2Vec2 ) * (size_t)spawn_capacity );
			}
			out->spawns[out->spawn_count++] = (b2Vec2){ a, b };
			continue;
		}
		int x = (int)a, y = (int)b;
		if ( ( kind != 'B' && kind != 'R' && kind != 'L' ) || x < 0 || y < 0 || x >= out->width || y >= out->height )
		{
			fprintf( stderr, "gauntlet_box2d: bad item '%c %g %g' in %s\n", kind, (double)a, (double)b, path );
			fclose( file );
			return false;
		}
		if ( out->tile_count == tile_capacity )
		{
			tile_capacity *= 2;
			out->tiles = (tile*)realloc( out->tiles, sizeof( tile ) * (size_t)tile_capacity );
		}
		tile_kind tk = kind == 'B' ? TILE_BOX : ( kind == 'R' ? TILE_RAMP_RIGHT : TILE_RAMP_LEFT );
		out->grid[y * out->width + x] = out->tile_count;
		out->tiles[out->tile_count++] = (tile){ x, y, tk };
	}
	fclose( file );
	return true;
}

// The tile's corners, counter-clockwise, in double precision (for the overlap measure).
static int tile_corners( const tile* t, double corners[4][2] )
{
	double x = t->x, y = t->y;
	corners[0][0] = x;
	corners[0][1] = y;
	corners[1][0] = x + 1.0;
	corners[1][1] = y;
	if ( t->kind == TILE_BOX )
	{
		corners[2][0] = x + 1.0;
		corners[2][1] = y + 1.0;
		corners[3][0] = x;
		corners[3][1] = y + 1.0;
		return 4;
	}
	corners[2][0] = t->kind == TILE_RAMP_RIGHT ? x + 1.0 : x;
	corners[2][1] = y + 1.0;
	return 3;
}

// Every tile its own polygon shape (no merging: the seams are part of the test), on one static body.
static b2WorldId world_create( const level* lv, bool rebuild )
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
		const tile* t = &lv->tiles[i];
		b2Polygon polygon;
		if ( t->kind == TILE_BOX )
		{
			polygon = b2MakeOffsetBox( 0.5f, 0.5f, (b2Vec2){ (float)t->x + 0.5f, (float)t->y + 0.5f }, b2Rot_identity );
		}
		else
		{
			double corners[4][2];
			int count = tile_corners( t, corners );
			b2Vec2 points[3];
			for ( int k = 0; k < count; ++k )
			{
				points[k] = (b2Vec2){ (float)corners[k][0], (float)corners[k][1] };
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
		b2Capsule capsule = { { position.x, position.y - (float)CAPSULE_HALF },
							  { position.x, position.y + (float)CAPSULE_HALF }, (float)CAPSULE_RADIUS };
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
static run_output run_once( const level* lv, int n, int steps, bool rebuild, float* frames )
{
	b2WorldId world = world_create( lv, rebuild );
	b2Vec2* position = (b2Vec2*)malloc( sizeof( b2Vec2 ) * (size_t)n );
	b2Vec2* velocity = (b2Vec2*)calloc( (size_t)n, sizeof( b2Vec2 ) );
	float* vx_desired = (float*)calloc( (size_t)n, sizeof( float ) );
	bool* want_jump = (bool*)calloc( (size_t)n, sizeof( bool ) );
	bool* on_ground = (bool*)calloc( (size_t)n, sizeof( bool ) );
	for ( int i = 0; i < n; ++i )
	{
		position[i] = lv->spawns[i];
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
			if ( ( step + i ) % 30 == 0 || step == 0 )
			{
				uint32_t h = hash3( SEED, (uint32_t)i, (uint32_t)( ( step + i ) / 30 ) );
				vx_desired[i] = ( (float)( h & 0xFFFFu ) / 65535.0f * 2.0f - 1.0f ) * MAX_SPEED;
				want_jump[i] = ( ( h >> 16 ) & 3u ) == 0;
			}
			b2Vec2 v = velocity[i];
			v.x = vx_desired[i];
			if ( on_ground[i] && want_jump[i] )
			{
				v.y = JUMP_SPEED;
				want_jump[i] = false;
			}
			v.y -= GRAVITY * DT;
			mover_result moved = move_character( world, position[i], v, DT );
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
	free( vx_desired );
	free( want_jump );
	free( on_ground );
	b2DestroyWorld( world );
	return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The overlap measure (double precision, no Box2D code, so the mover is not judged by its own geometry): how deep
// the capsule (core segment a-b, radius r) reaches into a convex counter-clockwise polygon. When the core stays
// outside: r - its distance to the polygon. When the core enters it: r + the core's smallest separating-axis
// overlap (over the polygon's edge normals and the core's normal).

typedef struct dvec
{
	double x, y;
} dvec;

static dvec dsub( dvec a, dvec b )
{
	return (dvec){ a.x - b.x, a.y - b.y };
}

static double dcross( dvec a, dvec b )
{
	return a.x * b.y - a.y * b.x;
}

static double ddot( dvec a, dvec b )
{
	return a.x * b.x + a.y * b.y;
}

static double point_to_segment( dvec p, dvec a, dvec b )
{
	dvec e = dsub( b, a );
	double t = ddot( dsub( p, a ), e ) / ddot( e, e );
	t = fmin( 1.0, fmax( 0.0, t ) );
	dvec d = dsub( p, (dvec){ a.x + t * e.x, a.y + t * e.y } );
	return sqrt( ddot( d, d ) );
}

static bool opposite_signs( double a, double b )
{
	return ( a > 0.0 && b < 0.0 ) || ( a < 0.0 && b > 0.0 );
}

// Strict crossing: segments that only touch do not count.
static bool proper_crossing( dvec p, dvec q, dvec r, dvec s )
{
	double d1 = dcross( dsub( q, p ), dsub( r, p ) ), d2 = dcross( dsub( q, p ), dsub( s, p ) );
	double d3 = dcross( dsub( s, r ), dsub( p, r ) ), d4 = dcross( dsub( s, r ), dsub( q, r ) );
	return opposite_signs( d1, d2 ) && opposite_signs( d3, d4 );
}

static bool inside_polygon( dvec p, const dvec* v, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		if ( dcross( dsub( v[( i + 1 ) % n], v[i] ), dsub( p, v[i] ) ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Overlap of the core and the polygon projected on axis (any length; normalised here).
static double axis_overlap( dvec axis, dvec a, dvec b, const dvec* v, int n )
{
	double length = sqrt( ddot( axis, axis ) );
	axis = (dvec){ axis.x / length, axis.y / length };
	double lo = INFINITY, hi = -INFINITY;
	for ( int k = 0; k < n; ++k )
	{
		lo = fmin( lo, ddot( v[k], axis ) );
		hi = fmax( hi, ddot( v[k], axis ) );
	}
	double sa = ddot( a, axis ), sb = ddot( b, axis );
	return fmin( hi - fmin( sa, sb ), fmax( sa, sb ) - lo );
}

static double capsule_depth( dvec a, dvec b, double radius, const dvec* v, int n )
{
	bool core_inside = inside_polygon( a, v, n ) || inside_polygon( b, v, n );
	double distance = INFINITY;
	for ( int i = 0; i < n && core_inside == false; ++i )
	{
		dvec p = v[i], q = v[( i + 1 ) % n];
		core_inside = proper_crossing( a, b, p, q );
		distance = fmin( distance, fmin( point_to_segment( a, p, q ), point_to_segment( b, p, q ) ) );
		distance = fmin( distance, point_to_segment( p, a, b ) );
	}
	if ( core_inside == false )
	{
		return radius - distance;
	}
	double smallest = axis_overlap( (dvec){ a.y - b.y, b.x - a.x }, a, b, v, n );
	for ( int i = 0; i < n; ++i )
	{
		dvec e = dsub( v[( i + 1 ) % n], v[i] );
		smallest = fmin( smallest, axis_overlap( (dvec){ e.y, -e.x }, a, b, v, n ) );
	}
	return radius + smallest;
}

// The measure must see overlaps: a capsule standing 0.1 inside a box, one across a ramp's slope, one just clear.
static bool overlap_measure_self_check( void )
{
	const dvec box[4] = { { 0.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 1.0 }, { 0.0, 1.0 } };
	const dvec ramp[3] = { { 0.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 1.0 } };
	double sunk = capsule_depth( (dvec){ 0.5, 1.2 }, (dvec){ 0.5, 1.8 }, 0.3, box, 4 );
	double crossing = capsule_depth( (dvec){ 0.5, 0.2 }, (dvec){ 0.5, 0.8 }, 0.3, ramp, 3 );
	double clear = capsule_depth( (dvec){ 2.0, 0.5 }, (dvec){ 2.0, 1.1 }, 0.3, box, 4 );
	return fabs( sunk - 0.1 ) < 1e-12 && crossing > 0.3 && clear < 0.0;
}

typedef struct quality
{
	uint64_t overlapping_steps; // character-steps with an overlap > 0.001
	double largest_overlap;
	double deepest_signed; // largest depth with its sign: negative is the closest approach
	int deepest_character, deepest_step;
	int left_map;
	double mean_path;
} quality;

static double deepest_tile_depth( const level* lv, double x, double y )
{
	dvec a = { x, y - CAPSULE_HALF }, b = { x, y + CAPSULE_HALF };
	double deepest = -INFINITY;
	int cx0 = (int)floor( x - CAPSULE_RADIUS ), cx1 = (int)floor( x + CAPSULE_RADIUS );
	int cy0 = (int)floor( y - CAPSULE_HALF - CAPSULE_RADIUS ), cy1 = (int)floor( y + CAPSULE_HALF + CAPSULE_RADIUS );
	for ( int cy = cy0 < 0 ? 0 : cy0; cy <= cy1 && cy < lv->height; ++cy )
	{
		for ( int cx = cx0 < 0 ? 0 : cx0; cx <= cx1 && cx < lv->width; ++cx )
		{
			int index = lv->grid[cy * lv->width + cx];
			if ( index < 0 )
			{
				continue;
			}
			double corners[4][2];
			int count = tile_corners( &lv->tiles[index], corners );
			dvec v[4];
			for ( int k = 0; k < count; ++k )
			{
				v[k] = (dvec){ corners[k][0], corners[k][1] };
			}
			deepest = fmax( deepest, capsule_depth( a, b, CAPSULE_RADIUS, v, count ) );
		}
	}
	return deepest;
}

static quality measure_quality( const level* lv, int n, int steps, const float* frames )
{
	quality q = { 0 };
	q.deepest_signed = -INFINITY;
	bool* left = (bool*)calloc( (size_t)n, sizeof( bool ) );
	double total_path = 0.0;
	for ( int step = 1; step <= steps; ++step )
	{
		const float* frame = frames + (size_t)step * (size_t)n * 2;
		const float* previous = frame - (size_t)n * 2;
		for ( int i = 0; i < n; ++i )
		{
			double x = frame[2 * i], y = frame[2 * i + 1];
			double dx = x - previous[2 * i], dy = y - previous[2 * i + 1];
			total_path += sqrt( dx * dx + dy * dy );
			if ( !( x >= 0.0 && x <= lv->width && y >= 0.0 && y <= lv->height ) )
			{
				left[i] = true;
				continue;
			}
			double deepest = deepest_tile_depth( lv, x, y );
			if ( deepest > q.deepest_signed )
			{
				q.deepest_signed = deepest;
				q.deepest_character = i;
				q.deepest_step = step;
			}
			q.largest_overlap = fmax( q.largest_overlap, deepest );
			q.overlapping_steps += deepest > 0.001 ? 1 : 0;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		q.left_map += left[i] ? 1 : 0;
	}
	q.mean_path = total_path / n;
	free( left );
	return q;
}

static double median_of( double* values, int count )
{
	qsort( values, (size_t)count, sizeof( double ), compare_doubles );
	return count % 2 ? values[count / 2] : 0.5 * ( values[count / 2 - 1] + values[count / 2] );
}

int main( int argc, char** argv )
{
	const char* level_path = KCC_LEVEL_DIR "/level.txt";
	const char* traj_path = NULL;
	int runs = 5, steps = 600;
	bool rebuild = false;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--runs" ) == 0 && i + 1 < argc )
		{
			runs = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--steps" ) == 0 && i + 1 < argc )
		{
			steps = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--traj" ) == 0 && i + 1 < argc )
		{
			traj_path = argv[++i];
		}
		else if ( strcmp( argv[i], "--rebuild" ) == 0 )
		{
			rebuild = true;
		}
		else if ( argv[i][0] != '-' )
		{
			level_path = argv[i];
		}
		else
		{
			fprintf( stderr, "usage: %s [level.txt] [--runs N] [--steps N] [--traj FILE] [--rebuild]\n", argv[0] );
			return 2;
		}
	}
	if ( runs < 1 || runs > MAX_RUNS || steps < 1 )
	{
		fprintf( stderr, "gauntlet_box2d: runs must be 1..%d, steps >= 1\n", MAX_RUNS );
		return 2;
	}
	if ( overlap_measure_self_check() == false )
	{
		fprintf( stderr, "gauntlet_box2d: the overlap measure failed its self-check\n" );
		return 1;
	}
	level lv;
	if ( load_level( level_path, &lv ) == false )
	{
		return 1;
	}
	int n = lv.spawn_count;
	size_t frame_floats = (size_t)( steps + 1 ) * (size_t)n * 2;
	float* frames = (float*)malloc( sizeof( float ) * frame_floats );
	float* first_frames = (float*)malloc( sizeof( float ) * frame_floats );
	if ( frames == NULL || first_frames == NULL )
	{
		return 1;
	}
	b2Version version = b2GetVersion();
	printf( "gauntlet_box2d: %s, %d x %d, %d tiles, %d characters, %d steps, %d runs, Box2D %d.%d.%d mover, "
			"static tree %s\n",
			level_path, lv.width, lv.height, lv.tile_count, n, steps, runs, version.major, version.minor,
			version.revision, rebuild ? "rebuilt" : "as inserted" );

	double rates[MAX_RUNS], cpu_rates[MAX_RUNS];
	run_output first = { 0 };
	bool identical = true;
	for ( int r = 0; r < runs; ++r )
	{
		run_output out = run_once( &lv, n, steps, rebuild, r == 0 ? first_frames : frames );
		rates[r] = (double)n * steps / out.seconds;
		cpu_rates[r] = (double)n * steps / out.cpu;
		if ( r == 0 )
		{
			first = out;
		}
		else
		{
			identical = identical && memcmp( frames, first_frames, sizeof( float ) * frame_floats ) == 0;
		}
		printf( "  run %d: %.3f s, %.3f M moves/s (CPU time %.3f s, %.3f M moves/s)\n", r + 1, out.seconds,
				rates[r] * 1e-6, out.cpu, cpu_rates[r] * 1e-6 );
	}
	double median = median_of( rates, runs );
	double cpu_median = median_of( cpu_rates, runs );
	quality q = measure_quality( &lv, n, steps, first_frames );

	printf( "moves/s (median of %d): %.3f M  (spread %.3f - %.3f M), %.3f us per move\n", runs, median * 1e-6,
			rates[0] * 1e-6, rates[runs - 1] * 1e-6, 1e6 / median );
	printf( "by CPU time (median): %.3f M moves/s (spread %.3f - %.3f M)\n", cpu_median * 1e-6, cpu_rates[0] * 1e-6,
			cpu_rates[runs - 1] * 1e-6 );
	printf( "character-steps with an overlap > 0.001: %llu\n", (unsigned long long)q.overlapping_steps );
	printf( "largest overlap: %.6g (signed: %.6g, character %d after step %d; negative = closest approach)\n",
			q.largest_overlap, q.deepest_signed, q.deepest_character, q.deepest_step - 1 );
	printf( "characters out of the map: %d\n", q.left_map );
	printf( "mean path length per character: %.4f\n", q.mean_path );
	printf( "characters on the ground at the end: %d\n", first.on_ground_at_end );
	printf( "runs bit-identical: %s\n", runs > 1 ? ( identical ? "yes" : "NO" ) : "(one run)" );

	if ( traj_path != NULL )
	{
		if ( write_trajectory( traj_path, n, steps, first_frames ) == false )
		{
			fprintf( stderr, "gauntlet_box2d: cannot write %s\n", traj_path );
			return 1;
		}
		printf( "trajectory written to %s\n", traj_path );
	}
	free( frames );
	free( first_frames );
	free( lv.tiles );
	free( lv.spawns );
	free( lv.grid );
	return 0;
}
