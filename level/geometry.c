// SPDX-License-Identifier: MIT
// Tiled object geometry into pieces: rectangles, ellipses, polygons, polylines, points and text, each in its own
// frame (rotated clockwise on screen about its (x, y), Tiled's convention in y-down pixels), then mapped by the
// caller's affine map (a tile's flips and placement, a layer offset) and to world units.
#include "internal.h"

#include <math.h>

#define KCC_PI 3.14159265358979323846

kcc_affine kcc_affine_identity( bool to_world )
{
	kcc_affine m = { 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, to_world };
	return m;
}

kcc_affine kcc_affine_compose( const kcc_affine* outer, const kcc_affine* inner )
{
	kcc_affine m;
	m.a = outer->a * inner->a + outer->b * inner->c;
	m.b = outer->a * inner->b + outer->b * inner->d;
	m.c = outer->c * inner->a + outer->d * inner->c;
	m.d = outer->c * inner->b + outer->d * inner->d;
	m.tx = outer->a * inner->tx + outer->b * inner->ty + outer->tx;
	m.ty = outer->c * inner->tx + outer->d * inner->ty + outer->ty;
	m.to_world = outer->to_world || inner->to_world;
	return m;
}

kcc_dvec2 kcc_affine_apply( const kcc_loader* L, const kcc_affine* m, kcc_dvec2 p )
{
	kcc_dvec2 q = { m->a * p.x + m->b * p.y + m->tx, m->c * p.x + m->d * p.y + m->ty };
	return m->to_world ? kcc_to_world( L, q ) : q;
}

kcc_affine kcc_affine_rotation( double degrees, double x, double y )
{
	// Clockwise on screen is the usual rotation matrix in y-down pixels. Exact at 0: unrotated rectangles stay
	// exactly aligned (merging and the tile full test compare coordinates).
	double angle = fmod( degrees, 360.0 ) * KCC_PI / 180.0;
	double c = degrees == 0.0 ? 1.0 : cos( angle ), s = degrees == 0.0 ? 0.0 : sin( angle );
	kcc_affine m = { c, -s, s, c, x, y, false };
	return m;
}

// The factor a circle's radius scales by under m, or 0 when m does not keep circles round.
static double kcc_affine_circle_scale( const kcc_loader* L, const kcc_affine* m )
{
	double col0 = hypot( m->a, m->c ), col1 = hypot( m->b, m->d );
	double dot = m->a * m->b + m->c * m->d;
	if ( fabs( col0 - col1 ) > 1.0e-12 * ( col0 + col1 ) || fabs( dot ) > 1.0e-12 * col0 * col1 )
	{
		return 0.0;
	}
	return m->to_world ? col0 / L->pixels_per_unit : col0;
}

kcc_level_status kcc_add_ellipse( kcc_loader* L, const kcc_affine* m, kcc_dvec2 center, double rx, double ry,
								  kcc_list* pieces, kcc_list* points )
{
	double scale = kcc_affine_circle_scale( L, m );
	kcc_piece* piece = kcc_list_push( pieces, sizeof( kcc_piece ), 1 );
	if ( piece == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	if ( scale > 0.0 && rx == ry )
	{
		piece->kind = KCC_PIECE_CIRCLE;
		piece->center = kcc_affine_apply( L, m, center );
		piece->radius = rx * scale;
		return KCC_LEVEL_OK;
	}
	piece->kind = KCC_PIECE_POLYGON;
	piece->first = points->count;
	piece->count = KCC_ELLIPSE_POINTS;
	kcc_dvec2* p = kcc_list_push( points, sizeof( kcc_dvec2 ), KCC_ELLIPSE_POINTS );
	if ( p == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	for ( int i = 0; i < KCC_ELLIPSE_POINTS; ++i )
	{
		double t = 2.0 * KCC_PI * (double)i / (double)KCC_ELLIPSE_POINTS;
		kcc_dvec2 local = { center.x + rx * cos( t ), center.y + ry * sin( t ) };
		p[i] = kcc_affine_apply( L, m, local );
	}
	return KCC_LEVEL_OK;
}

static kcc_level_status kcc_read_point_list( kcc_loader* L, const cJSON* list, const char* key, int minimum,
											 const kcc_affine* m, kcc_piece_kind kind, kcc_list* pieces,
											 kcc_list* points )
{
	int n = cJSON_GetArraySize( list );
	int mark = kcc_text_push( &L->path, ".", "%s", key );
	if ( n < minimum )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a %s needs at least %d points (has %d)", key, minimum, n );
	}
	else if ( n > L->def->max_polygon_points )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "a %s of %d points is more than max_polygon_points (%d): split it", key,
				  n, L->def->max_polygon_points );
	}
	kcc_text_pop( &L->path, mark );
	if ( L->status != KCC_LEVEL_OK )
	{
		return L->status;
	}
	int first = points->count;
	kcc_dvec2* p = kcc_list_push( points, sizeof( kcc_dvec2 ), n );
	kcc_piece* piece = kcc_list_push( pieces, sizeof( kcc_piece ), 1 );
	if ( p == NULL || piece == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	piece->kind = kind;
	piece->first = first;
	piece->count = n;
	int i = 0;
	for ( const cJSON* item = list->child; item != NULL; item = item->next, ++i )
	{
		int item_mark = kcc_text_push( &L->path, ".", "%s[%d]", key, i );
		kcc_dvec2 local = { 0.0, 0.0 };
		if ( cJSON_IsObject( item ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a point must be an object with x and y" );
		}
		else if ( kcc_json_number( L, item, "x", true, 0.0, &local.x ) == KCC_LEVEL_OK )
		{
			kcc_json_number( L, item, "y", true, 0.0, &local.y );
		}
		kcc_text_pop( &L->path, item_mark );
		if ( L->status != KCC_LEVEL_OK )
		{
			return L->status;
		}
		// p may have moved if the list grew: index through the list.
		KCC_LIST_AT( *points, kcc_dvec2, first )[i] = kcc_affine_apply( L, m, local );
	}
	return KCC_LEVEL_OK;
}

kcc_level_status kcc_read_geometry( kcc_loader* L, const cJSON* object, const kcc_affine* outer, kcc_list* pieces,
									kcc_list* points, kcc_geometry_info* info )
{
	info->is_point = false;
	info->is_text = false;
	double x, y, w, h, rotation;
	bool ellipse, point;
	const cJSON* polygon = NULL;
	const cJSON* polyline = NULL;
	if ( kcc_json_number( L, object, "x", false, 0.0, &x ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "y", false, 0.0, &y ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "width", false, 0.0, &w ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "height", false, 0.0, &h ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "rotation", false, 0.0, &rotation ) != KCC_LEVEL_OK ||
		 kcc_json_bool( L, object, "ellipse", false, &ellipse ) != KCC_LEVEL_OK ||
		 kcc_json_bool( L, object, "point", false, &point ) != KCC_LEVEL_OK ||
		 kcc_json_array( L, object, "polygon", false, &polygon ) != KCC_LEVEL_OK ||
		 kcc_json_array( L, object, "polyline", false, &polyline ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( w < 0.0 || h < 0.0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "width and height must not be negative (%g x %g)", w, h );
	}
	kcc_affine local = kcc_affine_rotation( rotation, x, y );
	kcc_affine m = kcc_affine_compose( outer, &local );
	kcc_dvec2 origin = { 0.0, 0.0 };
	info->point = kcc_affine_apply( L, &m, origin );
	if ( point || ( polygon == NULL && polyline == NULL && ellipse == false && w == 0.0 && h == 0.0 &&
					cJSON_GetObjectItemCaseSensitive( object, "text" ) == NULL ) )
	{
		info->is_point = true;
		return KCC_LEVEL_OK;
	}
	if ( cJSON_GetObjectItemCaseSensitive( object, "text" ) != NULL )
	{
		info->is_text = true;
		return KCC_LEVEL_OK;
	}
	if ( polygon != NULL )
	{
		return kcc_read_point_list( L, polygon, "polygon", 3, &m, KCC_PIECE_POLYGON, pieces, points );
	}
	if ( polyline != NULL )
	{
		return kcc_read_point_list( L, polyline, "polyline", 2, &m, KCC_PIECE_POLYLINE, pieces, points );
	}
	if ( ellipse )
	{
		kcc_dvec2 center = { 0.5 * w, 0.5 * h };
		return kcc_add_ellipse( L, &m, center, 0.5 * w, 0.5 * h, pieces, points );
	}
	if ( w == 0.0 || h == 0.0 )
	{
		// A rectangle of zero width or height is a line (a thin wall, a tile's top edge): one segment.
		int first = points->count;
		kcc_piece* piece = kcc_list_push( pieces, sizeof( kcc_piece ), 1 );
		kcc_dvec2* p = kcc_list_push( points, sizeof( kcc_dvec2 ), 2 );
		if ( p == NULL || piece == NULL )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		kcc_dvec2 end = { w, h };
		p[0] = kcc_affine_apply( L, &m, origin );
		p[1] = kcc_affine_apply( L, &m, end );
		piece->kind = KCC_PIECE_POLYLINE;
		piece->first = first;
		piece->count = 2;
		return KCC_LEVEL_OK;
	}
	kcc_dvec2 corners[4] = { { 0.0, 0.0 }, { w, 0.0 }, { w, h }, { 0.0, h } };
	int first = points->count;
	kcc_dvec2* p = kcc_list_push( points, sizeof( kcc_dvec2 ), 4 );
	kcc_piece* piece = kcc_list_push( pieces, sizeof( kcc_piece ), 1 );
	if ( p == NULL || piece == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	for ( int i = 0; i < 4; ++i )
	{
		KCC_LIST_AT( *points, kcc_dvec2, first )[i] = kcc_affine_apply( L, &m, corners[i] );
	}
	piece->kind = KCC_PIECE_POLYGON;
	piece->first = first;
	piece->count = 4;
	piece->is_rect = rotation == 0.0;
	return KCC_LEVEL_OK;
}

kcc_level_status kcc_copy_pieces( kcc_loader* L, const kcc_affine* m, const kcc_piece* from, int count,
								  const kcc_dvec2* from_points, kcc_list* pieces, kcc_list* points )
{
	for ( int i = 0; i < count; ++i )
	{
		const kcc_piece* src = from + i;
		if ( src->kind == KCC_PIECE_CIRCLE )
		{
			// A circle through a map that is not a similarity (a tile object stretched) becomes an ellipse.
			int before = pieces->count;
			if ( kcc_add_ellipse( L, m, src->center, src->radius, src->radius, pieces, points ) != KCC_LEVEL_OK )
			{
				return L->status;
			}
			KCC_LIST_AT( *pieces, kcc_piece, before )->one_way = src->one_way;
			continue;
		}
		int first = points->count;
		kcc_dvec2* p = kcc_list_push( points, sizeof( kcc_dvec2 ), src->count );
		kcc_piece* piece = kcc_list_push( pieces, sizeof( kcc_piece ), 1 );
		if ( p == NULL || piece == NULL )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		*piece = *src;
		piece->first = first;
		for ( int k = 0; k < src->count; ++k )
		{
			p[k] = kcc_affine_apply( L, m, from_points[src->first + k] );
		}
	}
	return KCC_LEVEL_OK;
}
