// SPDX-License-Identifier: MIT
// The gauntlet's quality figures, measured after the timed loop from the recorded positions, in double precision
// and plain C: no kcc2d, Chipmunk or Box2D code, so that no mover is judged by its own geometry.
//
// The overlap measure: how deep the capsule (core segment a-b, radius r) reaches into a convex counter-clockwise
// polygon. When the core stays outside: r - its distance to the polygon. When the core enters it: r + the core's
// smallest separating-axis overlap (over the polygon's edge normals and the core's normal).
#pragma once

#include "gauntlet_level.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline gauntlet_dvec gauntlet_dsub( gauntlet_dvec a, gauntlet_dvec b )
{
	return (gauntlet_dvec){ a.x - b.x, a.y - b.y };
}

static inline double gauntlet_dcross( gauntlet_dvec a, gauntlet_dvec b )
{
	return a.x * b.y - a.y * b.x;
}

static inline double gauntlet_ddot( gauntlet_dvec a, gauntlet_dvec b )
{
	return a.x * b.x + a.y * b.y;
}

static inline double gauntlet_point_to_segment( gauntlet_dvec p, gauntlet_dvec a, gauntlet_dvec b )
{
	gauntlet_dvec e = gauntlet_dsub( b, a );
	double t = gauntlet_ddot( gauntlet_dsub( p, a ), e ) / gauntlet_ddot( e, e );
	t = fmin( 1.0, fmax( 0.0, t ) );
	gauntlet_dvec d = gauntlet_dsub( p, (gauntlet_dvec){ a.x + t * e.x, a.y + t * e.y } );
	return sqrt( gauntlet_ddot( d, d ) );
}

static inline bool gauntlet_opposite_signs( double a, double b )
{
	return ( a > 0.0 && b < 0.0 ) || ( a < 0.0 && b > 0.0 );
}

// Strict crossing: segments that only touch do not count.
static inline bool gauntlet_segments_cross( gauntlet_dvec p, gauntlet_dvec q, gauntlet_dvec r, gauntlet_dvec s )
{
	double d1 = gauntlet_dcross( gauntlet_dsub( q, p ), gauntlet_dsub( r, p ) );
	double d2 = gauntlet_dcross( gauntlet_dsub( q, p ), gauntlet_dsub( s, p ) );
	double d3 = gauntlet_dcross( gauntlet_dsub( s, r ), gauntlet_dsub( p, r ) );
	double d4 = gauntlet_dcross( gauntlet_dsub( s, r ), gauntlet_dsub( q, r ) );
	return gauntlet_opposite_signs( d1, d2 ) && gauntlet_opposite_signs( d3, d4 );
}

static inline bool gauntlet_point_in_polygon( gauntlet_dvec p, const gauntlet_dvec* v, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		if ( gauntlet_dcross( gauntlet_dsub( v[( i + 1 ) % n], v[i] ), gauntlet_dsub( p, v[i] ) ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Overlap of the core and the polygon projected on axis (any length; normalised here).
static inline double gauntlet_axis_overlap( gauntlet_dvec axis, gauntlet_dvec a, gauntlet_dvec b,
											const gauntlet_dvec* v, int n )
{
	double length = sqrt( gauntlet_ddot( axis, axis ) );
	axis = (gauntlet_dvec){ axis.x / length, axis.y / length };
	double lo = INFINITY, hi = -INFINITY;
	for ( int k = 0; k < n; ++k )
	{
		lo = fmin( lo, gauntlet_ddot( v[k], axis ) );
		hi = fmax( hi, gauntlet_ddot( v[k], axis ) );
	}
	double sa = gauntlet_ddot( a, axis ), sb = gauntlet_ddot( b, axis );
	return fmin( hi - fmin( sa, sb ), fmax( sa, sb ) - lo );
}

static inline double gauntlet_capsule_depth( gauntlet_dvec a, gauntlet_dvec b, double radius, const gauntlet_dvec* v,
											 int n )
{
	bool core_inside = gauntlet_point_in_polygon( a, v, n ) || gauntlet_point_in_polygon( b, v, n );
	double distance = INFINITY;
	for ( int i = 0; i < n && core_inside == false; ++i )
	{
		gauntlet_dvec p = v[i], q = v[( i + 1 ) % n];
		core_inside = gauntlet_segments_cross( a, b, p, q );
		distance = fmin( distance, fmin( gauntlet_point_to_segment( a, p, q ), gauntlet_point_to_segment( b, p, q ) ) );
		distance = fmin( distance, gauntlet_point_to_segment( p, a, b ) );
	}
	if ( core_inside == false )
	{
		return radius - distance;
	}
	double smallest = gauntlet_axis_overlap( (gauntlet_dvec){ a.y - b.y, b.x - a.x }, a, b, v, n );
	for ( int i = 0; i < n; ++i )
	{
		gauntlet_dvec e = gauntlet_dsub( v[( i + 1 ) % n], v[i] );
		smallest = fmin( smallest, gauntlet_axis_overlap( (gauntlet_dvec){ e.y, -e.x }, a, b, v, n ) );
	}
	return radius + smallest;
}

// The measure must see overlaps: a capsule standing 0.1 inside a box, one across a ramp's slope, one just clear.
// False with a message on standard error when it does not.
static inline bool gauntlet_measure_self_check( void )
{
	const gauntlet_dvec box[4] = { { 0.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 1.0 }, { 0.0, 1.0 } };
	const gauntlet_dvec ramp[3] = { { 0.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 1.0 } };
	double sunk = gauntlet_capsule_depth( (gauntlet_dvec){ 0.5, 1.2 }, (gauntlet_dvec){ 0.5, 1.8 }, 0.3, box, 4 );
	double crossing = gauntlet_capsule_depth( (gauntlet_dvec){ 0.5, 0.2 }, (gauntlet_dvec){ 0.5, 0.8 }, 0.3, ramp, 3 );
	double clear = gauntlet_capsule_depth( (gauntlet_dvec){ 2.0, 0.5 }, (gauntlet_dvec){ 2.0, 1.1 }, 0.3, box, 4 );
	if ( fabs( sunk - 0.1 ) < 1e-12 && crossing > 0.3 && clear < 0.0 )
	{
		return true;
	}
	fprintf( stderr, GAUNTLET_PROGRAM ": the overlap measure failed its self-check\n" );
	return false;
}

// The deepest reach of a character's capsule at (x, y) into the level's tiles (-INFINITY with no tile near).
static inline double gauntlet_deepest_tile_depth( const gauntlet_level* lv, double x, double y )
{
	gauntlet_dvec a = { x, y - GAUNTLET_CAPSULE_HALF }, b = { x, y + GAUNTLET_CAPSULE_HALF };
	double deepest = -INFINITY;
	int cx0 = (int)floor( x - GAUNTLET_CAPSULE_RADIUS ), cx1 = (int)floor( x + GAUNTLET_CAPSULE_RADIUS );
	int cy0 = (int)floor( y - GAUNTLET_CAPSULE_HALF - GAUNTLET_CAPSULE_RADIUS );
	int cy1 = (int)floor( y + GAUNTLET_CAPSULE_HALF + GAUNTLET_CAPSULE_RADIUS );
	for ( int cy = cy0 < 0 ? 0 : cy0; cy <= cy1 && cy < lv->height; ++cy )
	{
		for ( int cx = cx0 < 0 ? 0 : cx0; cx <= cx1 && cx < lv->width; ++cx )
		{
			int index = lv->grid[cy * lv->width + cx];
			if ( index < 0 )
			{
				continue;
			}
			gauntlet_dvec v[4];
			int count = gauntlet_tile_vertices( &lv->tiles[index], v );
			deepest = fmax( deepest, gauntlet_capsule_depth( a, b, GAUNTLET_CAPSULE_RADIUS, v, count ) );
		}
	}
	return deepest;
}

typedef struct gauntlet_quality
{
	uint64_t overlapping_steps; // character-steps with an overlap > 0.001
	double largest_overlap;
	double deepest_signed; // largest depth with its sign: negative is the closest approach (about -skin)
	int deepest_character, deepest_step;
	int left_map;
	double mean_path;
} gauntlet_quality;

// The figures of n characters over steps from frames ((steps + 1) * n (x, y) floats, the first frame the spawns).
static inline gauntlet_quality gauntlet_measure_quality( const gauntlet_level* lv, int n, int steps,
														 const float* frames )
{
	gauntlet_quality q = { 0 };
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
			double deepest = gauntlet_deepest_tile_depth( lv, x, y );
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

// The figures' lines, the same in every driver (their output is parsed).
static inline void gauntlet_quality_print( const gauntlet_quality* q )
{
	printf( "character-steps with an overlap > 0.001: %llu\n", (unsigned long long)q->overlapping_steps );
	printf( "largest overlap: %.6g (signed: %.6g, character %d after step %d; negative = closest approach)\n",
			q->largest_overlap, q->deepest_signed, q->deepest_character, q->deepest_step - 1 );
	printf( "characters out of the map: %d\n", q->left_map );
	printf( "mean path length per character: %.4f\n", q->mean_path );
}
