// SPDX-License-Identifier: MIT
// Pieces of geometry into shape descriptions (what build.c turns into Chipmunk shapes): a convex polygon is one
// shape, a concave one is split into convex pieces, a polyline is one segment per edge, a circle one circle.
// Degenerate geometry (no area, no length, crossing itself, coordinates beyond max_coordinate) is an error here,
// before anything reaches Chipmunk (which asserts on some of it).
#include "internal.h"

#include <math.h>
#include <string.h>

kcc_dvec2 kcc_to_world( const kcc_loader* L, kcc_dvec2 pixel )
{
	kcc_dvec2 w = { pixel.x / L->pixels_per_unit, ( L->map_height_px - pixel.y ) / L->pixels_per_unit };
	return w;
}

kcc_level_status kcc_check_world( kcc_loader* L, kcc_dvec2 p )
{
	double limit = (double)L->def->max_coordinate;
	if ( isfinite( p.x ) == 0 || isfinite( p.y ) == 0 || fabs( p.x ) > limit || fabs( p.y ) > limit )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "a point at (%g, %g) world units is beyond max_coordinate (%g)", p.x,
						 p.y, limit );
	}
	return KCC_LEVEL_OK;
}

static kcc_shape_desc* kcc_new_desc( kcc_loader* L, kcc_shape_desc_kind kind, int point_count, int body, int object,
									 int layer, cpBitmask category, bool sensor )
{
	kcc_shape_desc* d = kcc_list_push( &L->shapes, sizeof( kcc_shape_desc ), 1 );
	if ( d == NULL || kcc_list_push( &L->shape_points, sizeof( kcc_dvec2 ), point_count ) == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		return NULL;
	}
	d->kind = kind;
	d->sensor = sensor;
	d->body = body;
	d->object = object;
	d->layer = layer;
	d->category = category;
	d->first = L->shape_points.count - point_count;
	d->count = point_count;
	return d;
}

// A polygon whose points lie on one line: the segment between its two farthest points (the farthest from any
// point, then the farthest from that one: exact for points on a line).
static kcc_level_status kcc_emit_flat( kcc_loader* L, const kcc_dvec2* points, int count, int body, int object,
									   int layer, cpBitmask category, bool sensor )
{
	int a = 0, b = 0;
	double best = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		double d = hypot( points[i].x - points[0].x, points[i].y - points[0].y );
		a = d > best ? i : a;
		best = d > best ? d : best;
	}
	best = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		double d = hypot( points[i].x - points[a].x, points[i].y - points[a].y );
		b = d > best ? i : b;
		best = d > best ? d : best;
	}
	if ( best < KCC_LEVEL_MIN_SIZE )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "polygon has no size (its points are all at one place)" );
	}
	if ( sensor )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a zone needs an area: its polygon's points are on one line" );
	}
	kcc_shape_desc* d = kcc_new_desc( L, KCC_DESC_SEGMENT, 2, body, object, layer, category, sensor );
	if ( d != NULL )
	{
		KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first )[0] = points[a];
		KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first )[1] = points[b];
	}
	return L->status;
}

static kcc_level_status kcc_emit_polygon( kcc_loader* L, const kcc_dvec2* points, int count, int body, int object,
										  int layer, cpBitmask category, bool sensor )
{
	kcc_dvec2* p = malloc( (size_t)( count > 0 ? count : 1 ) * sizeof( kcc_dvec2 ) );
	if ( p == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	memcpy( p, points, (size_t)count * sizeof( kcc_dvec2 ) );
	int n = kcc_polygon_clean( p, count );
	double size = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		size = fmax( size, fmax( fabs( p[i].x - p[0].x ), fabs( p[i].y - p[0].y ) ) );
	}
	if ( n >= 3 && kcc_polygon_is_simple( p, n ) == false )
	{
		free( p );
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "polygon crosses or touches itself" );
	}
	// Area within rounding of zero for its size: a line drawn as a polygon collides as that line, from end to end.
	if ( n < 3 || fabs( kcc_polygon_area( p, n ) ) <= 1.0e-12 * size * size )
	{
		free( p );
		return kcc_emit_flat( L, points, count, body, object, layer, category, sensor );
	}
	if ( size < KCC_LEVEL_MIN_SIZE )
	{
		free( p );
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "polygon is smaller than %g world units", KCC_LEVEL_MIN_SIZE );
	}
	if ( kcc_polygon_is_convex( p, n ) )
	{
		kcc_shape_desc* d = kcc_new_desc( L, KCC_DESC_POLYGON, n, body, object, layer, category, sensor );
		if ( d != NULL )
		{
			memcpy( KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first ), p, (size_t)n * sizeof( kcc_dvec2 ) );
		}
		free( p );
		return L->status;
	}
	kcc_list piece_points = { NULL, 0, 0 }, piece_counts = { NULL, 0, 0 };
	kcc_polygon_result result = kcc_polygon_decompose_simple( p, n, &piece_points, &piece_counts );
	free( p );
	if ( result == KCC_POLYGON_DEGENERATE )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "polygon is too thin to split into convex pieces" );
	}
	else if ( result == KCC_POLYGON_NO_MEMORY )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	int at = 0;
	for ( int i = 0; i < piece_counts.count && L->status == KCC_LEVEL_OK; ++i )
	{
		int k = *KCC_LIST_AT( piece_counts, int, i );
		kcc_shape_desc* d = kcc_new_desc( L, KCC_DESC_POLYGON, k, body, object, layer, category, sensor );
		if ( d != NULL )
		{
			memcpy( KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first ), KCC_LIST_AT( piece_points, kcc_dvec2, at ),
					(size_t)k * sizeof( kcc_dvec2 ) );
		}
		at += k;
	}
	kcc_list_free( &piece_points );
	kcc_list_free( &piece_counts );
	return L->status;
}

kcc_level_status kcc_emit_piece( kcc_loader* L, const kcc_piece* piece, const kcc_dvec2* points, int body,
								 int object, int layer, cpBitmask category, bool sensor )
{
	if ( piece->kind == KCC_PIECE_CIRCLE )
	{
		if ( kcc_check_world( L, piece->center ) != KCC_LEVEL_OK )
		{
			return L->status;
		}
		if ( isfinite( piece->radius ) == 0 || piece->radius < KCC_LEVEL_MIN_SIZE ||
			 piece->radius > L->def->max_coordinate )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "circle radius %g world units is below %g or beyond "
														 "max_coordinate", piece->radius, KCC_LEVEL_MIN_SIZE );
		}
		kcc_shape_desc* d = kcc_new_desc( L, KCC_DESC_CIRCLE, 1, body, object, layer, category, sensor );
		if ( d != NULL )
		{
			*KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first ) = piece->center;
			d->radius = piece->radius;
		}
		return L->status;
	}
	for ( int i = 0; i < piece->count; ++i )
	{
		if ( kcc_check_world( L, points[piece->first + i] ) != KCC_LEVEL_OK )
		{
			return L->status;
		}
	}
	if ( piece->kind == KCC_PIECE_POLYGON )
	{
		return kcc_emit_polygon( L, points + piece->first, piece->count, body, object, layer, category, sensor );
	}
	int emitted = 0;
	for ( int i = 0; i + 1 < piece->count && L->status == KCC_LEVEL_OK; ++i )
	{
		kcc_dvec2 a = points[piece->first + i], b = points[piece->first + i + 1];
		if ( a.x == b.x && a.y == b.y )
		{
			continue;
		}
		kcc_shape_desc* d = kcc_new_desc( L, KCC_DESC_SEGMENT, 2, body, object, layer, category, sensor );
		if ( d != NULL )
		{
			KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first )[0] = a;
			KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first )[1] = b;
			emitted += 1;
		}
	}
	if ( emitted == 0 && L->status == KCC_LEVEL_OK )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "polyline has no length (all its points are the same)" );
	}
	return L->status;
}
