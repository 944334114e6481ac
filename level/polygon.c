// SPDX-License-Identifier: MIT
// Tiled polygons are any simple polygon, concave included; Chipmunk's polygon shapes are convex. A polygon is
// cleaned (repeated points and points in line with their neighbours dropped), checked for self-crossing, cut
// into triangles by ear clipping, and the triangles are merged back into convex pieces of at most
// KCC_MAX_POLYGON_VERTICES points (greedy: a triangle joins a piece sharing an edge when the union stays convex).
#include "internal.h"

#include <math.h>
#include <string.h>

// Three points are in line when the sine of the angle between their edges is below this: far below any angle
// drawn in an editor, far above the rounding of double coordinates.
#define KCC_COLLINEAR_SINE 1.0e-9

static double kcc_cross3( kcc_dvec2 a, kcc_dvec2 b, kcc_dvec2 c )
{
	return ( b.x - a.x ) * ( c.y - a.y ) - ( b.y - a.y ) * ( c.x - a.x );
}

static double kcc_dlength( kcc_dvec2 a, kcc_dvec2 b )
{
	return hypot( b.x - a.x, b.y - a.y );
}

// Turn at b, relative: positive left (counter-clockwise), zero when a, b, c are in line within the tolerance.
static int kcc_turn( kcc_dvec2 a, kcc_dvec2 b, kcc_dvec2 c )
{
	double cross = kcc_cross3( a, b, c );
	double scale = kcc_dlength( a, b ) * kcc_dlength( b, c );
	if ( fabs( cross ) <= KCC_COLLINEAR_SINE * scale )
	{
		return 0;
	}
	return cross > 0.0 ? 1 : -1;
}

double kcc_polygon_area( const kcc_dvec2* points, int count )
{
	double sum = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		kcc_dvec2 a = points[i], b = points[( i + 1 ) % count];
		sum += a.x * b.y - b.x * a.y;
	}
	return 0.5 * sum;
}

bool kcc_polygon_is_convex( const kcc_dvec2* points, int count )
{
	int sign = 0;
	for ( int i = 0; i < count; ++i )
	{
		int turn = kcc_turn( points[( i + count - 1 ) % count], points[i], points[( i + 1 ) % count] );
		if ( turn == 0 || ( sign != 0 && turn != sign ) )
		{
			return false;
		}
		sign = turn;
	}
	return sign != 0 && count >= 3;
}

int kcc_polygon_clean( kcc_dvec2* points, int count )
{
	bool changed = true;
	while ( changed && count >= 2 )
	{
		changed = false;
		for ( int i = 0; i < count && count >= 2; ++i )
		{
			kcc_dvec2 a = points[( i + count - 1 ) % count], b = points[i], c = points[( i + 1 ) % count];
			bool repeated = b.x == c.x && b.y == c.y;
			if ( repeated || ( count >= 3 && kcc_turn( a, b, c ) == 0 ) )
			{
				memmove( points + i, points + i + 1, (size_t)( count - i - 1 ) * sizeof( kcc_dvec2 ) );
				count -= 1;
				changed = true;
				i -= 1;
			}
		}
	}
	return count;
}

// Proper or touching intersection of segments ab and cd.
static bool kcc_segments_touch( kcc_dvec2 a, kcc_dvec2 b, kcc_dvec2 c, kcc_dvec2 d )
{
	double d1 = kcc_cross3( c, d, a ), d2 = kcc_cross3( c, d, b );
	double d3 = kcc_cross3( a, b, c ), d4 = kcc_cross3( a, b, d );
	if ( ( ( d1 > 0 && d2 < 0 ) || ( d1 < 0 && d2 > 0 ) ) && ( ( d3 > 0 && d4 < 0 ) || ( d3 < 0 && d4 > 0 ) ) )
	{
		return true;
	}
	// Collinear or touching cases: a point of one segment on the other.
	double min_x = fmin( c.x, d.x ), max_x = fmax( c.x, d.x ), min_y = fmin( c.y, d.y ), max_y = fmax( c.y, d.y );
	if ( d1 == 0 && a.x >= min_x && a.x <= max_x && a.y >= min_y && a.y <= max_y )
	{
		return true;
	}
	if ( d2 == 0 && b.x >= min_x && b.x <= max_x && b.y >= min_y && b.y <= max_y )
	{
		return true;
	}
	min_x = fmin( a.x, b.x ), max_x = fmax( a.x, b.x ), min_y = fmin( a.y, b.y ), max_y = fmax( a.y, b.y );
	if ( d3 == 0 && c.x >= min_x && c.x <= max_x && c.y >= min_y && c.y <= max_y )
	{
		return true;
	}
	return d4 == 0 && d.x >= min_x && d.x <= max_x && d.y >= min_y && d.y <= max_y;
}

bool kcc_polygon_is_simple( const kcc_dvec2* p, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		kcc_dvec2 a = p[i], b = p[( i + 1 ) % n];
		for ( int j = i + 2; j < n; ++j )
		{
			if ( i == 0 && j == n - 1 )
			{
				continue; // the two edges meeting at point 0
			}
			if ( kcc_segments_touch( a, b, p[j], p[( j + 1 ) % n] ) )
			{
				return false;
			}
		}
	}
	return true;
}

static bool kcc_point_in_triangle( kcc_dvec2 p, kcc_dvec2 a, kcc_dvec2 b, kcc_dvec2 c )
{
	// Counter-clockwise triangle; points on its edges count as inside (an ear must not touch another vertex).
	return kcc_cross3( a, b, p ) >= 0.0 && kcc_cross3( b, c, p ) >= 0.0 && kcc_cross3( c, a, p ) >= 0.0;
}

// A convex piece as indices into the (counter-clockwise) polygon.
typedef struct kcc_convex_piece
{
	int count;
	int index[KCC_MAX_POLYGON_VERTICES];
} kcc_convex_piece;

// Tries to add triangle (a, b, c) to the piece: it must share an edge with it and keep it convex.
static bool kcc_piece_absorb( kcc_convex_piece* piece, const kcc_dvec2* p, const int tri[3] )
{
	if ( piece->count >= KCC_MAX_POLYGON_VERTICES )
	{
		return false;
	}
	for ( int e = 0; e < piece->count; ++e )
	{
		int u = piece->index[e], v = piece->index[( e + 1 ) % piece->count];
		for ( int k = 0; k < 3; ++k )
		{
			// The triangle runs v -> u on the shared edge (both counter-clockwise); w is its third point.
			if ( tri[k] != v || tri[( k + 1 ) % 3] != u )
			{
				continue;
			}
			int w = tri[( k + 2 ) % 3];
			int before = piece->index[( e + piece->count - 1 ) % piece->count];
			int after = piece->index[( e + 2 ) % piece->count];
			if ( kcc_turn( p[before], p[u], p[w] ) <= 0 || kcc_turn( p[u], p[w], p[v] ) <= 0 ||
				 kcc_turn( p[w], p[v], p[after] ) <= 0 )
			{
				return false;
			}
			memmove( piece->index + e + 2, piece->index + e + 1, (size_t)( piece->count - e - 1 ) * sizeof( int ) );
			piece->index[e + 1] = w;
			piece->count += 1;
			return true;
		}
	}
	return false;
}

kcc_polygon_result kcc_polygon_decompose( const kcc_dvec2* points, int count, kcc_list* out_points,
										  kcc_list* out_counts )
{
	if ( count < 3 || fabs( kcc_polygon_area( points, count ) ) <= 0.0 )
	{
		return KCC_POLYGON_DEGENERATE;
	}
	if ( kcc_polygon_is_simple( points, count ) == false )
	{
		return KCC_POLYGON_SELF_CROSSING;
	}
	return kcc_polygon_decompose_simple( points, count, out_points, out_counts );
}

kcc_polygon_result kcc_polygon_decompose_simple( const kcc_dvec2* points, int count, kcc_list* out_points,
												 kcc_list* out_counts )
{
	kcc_polygon_result result = KCC_POLYGON_OK;
	// Work on a counter-clockwise copy (indices into it), with a ring of remaining points for the clipping.
	kcc_dvec2* p = malloc( (size_t)count * sizeof( kcc_dvec2 ) );
	int* ring = malloc( (size_t)count * sizeof( int ) );
	kcc_convex_piece* pieces = malloc( (size_t)count * sizeof( kcc_convex_piece ) );
	if ( p == NULL || ring == NULL || pieces == NULL )
	{
		free( p );
		free( ring );
		free( pieces );
		return KCC_POLYGON_NO_MEMORY;
	}
	bool reverse = kcc_polygon_area( points, count ) < 0.0;
	for ( int i = 0; i < count; ++i )
	{
		p[i] = points[reverse ? count - 1 - i : i];
		ring[i] = i;
	}
	int piece_count = 0;
	int remaining = count;
	int start = 0; // the next ear is usually next to the last one: look there first
	while ( remaining >= 3 && result == KCC_POLYGON_OK )
	{
		bool clipped = false;
		for ( int t = 0; t < remaining && clipped == false; ++t )
		{
			int k = ( start + t ) % remaining;
			int ia = ring[( k + remaining - 1 ) % remaining], ib = ring[k], ic = ring[( k + 1 ) % remaining];
			if ( kcc_turn( p[ia], p[ib], p[ic] ) <= 0 )
			{
				continue; // reflex or flat: not an ear
			}
			bool empty = true;
			for ( int m = 0; m < remaining && empty; ++m )
			{
				int im = ring[m];
				if ( im != ia && im != ib && im != ic && kcc_point_in_triangle( p[im], p[ia], p[ib], p[ic] ) )
				{
					empty = false;
				}
			}
			if ( empty == false )
			{
				continue;
			}
			int tri[3] = { ia, ib, ic };
			bool absorbed = false;
			for ( int q = piece_count - 1; q >= 0 && absorbed == false; --q )
			{
				absorbed = kcc_piece_absorb( pieces + q, p, tri );
			}
			if ( absorbed == false )
			{
				pieces[piece_count].count = 3;
				memcpy( pieces[piece_count].index, tri, sizeof( tri ) );
				piece_count += 1;
			}
			memmove( ring + k, ring + k + 1, (size_t)( remaining - k - 1 ) * sizeof( int ) );
			remaining -= 1;
			start = k > 0 ? k - 1 : 0;
			clipped = true;
		}
		if ( clipped == false )
		{
			// Only flat corners left (a sliver thinner than rounding) or a polygon too close to degenerate.
			double sliver = 0.0;
			for ( int k = 0; k < remaining; ++k )
			{
				kcc_dvec2 a = p[ring[k]], b = p[ring[( k + 1 ) % remaining]];
				sliver += a.x * b.y - b.x * a.y;
			}
			double whole = fabs( kcc_polygon_area( p, count ) );
			result = fabs( 0.5 * sliver ) <= 1.0e-9 * whole ? KCC_POLYGON_OK : KCC_POLYGON_DEGENERATE;
			break;
		}
	}
	for ( int q = 0; q < piece_count && result == KCC_POLYGON_OK; ++q )
	{
		kcc_dvec2* out = kcc_list_push( out_points, sizeof( kcc_dvec2 ), pieces[q].count );
		int* size = kcc_list_push( out_counts, sizeof( int ), 1 );
		if ( out == NULL || size == NULL )
		{
			result = KCC_POLYGON_NO_MEMORY;
			break;
		}
		for ( int i = 0; i < pieces[q].count; ++i )
		{
			out[i] = p[pieces[q].index[i]];
		}
		*size = pieces[q].count;
	}
	if ( piece_count == 0 && result == KCC_POLYGON_OK )
	{
		result = KCC_POLYGON_DEGENERATE;
	}
	free( p );
	free( ring );
	free( pieces );
	return result;
}
