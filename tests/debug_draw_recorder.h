// SPDX-License-Identifier: MIT
// A recording kcc_debug_draw for the debug-draw tests: every callback appends what it was given, so a test can ask
// what was drawn, where and in which colour. Each callback can be left out (set to NULL) to test the fallbacks.
#pragma once

#include "kcc/debug_draw.h"

#include <string.h>

#define RECORDER_MAX_ITEMS 4096
#define RECORDER_MAX_POINTS 8192

typedef enum recorder_kind
{
	REC_SEGMENT,
	REC_POLYGON,
	REC_SOLID_POLYGON,
	REC_CIRCLE,
	REC_CAPSULE,
	REC_ARC,
	REC_POINT,
	REC_TEXT,
	REC_KIND_COUNT
} recorder_kind;

typedef struct recorder_item
{
	recorder_kind kind;
	kcc_color color;
	vec2s a, b;      ///< segment ends; circle / arc centre in a; capsule ends; point and text position in a
	float radius;    ///< circle, capsule, arc; point size
	float start, sweep; ///< arc
	int first_point, point_count; ///< polygons: their points in recorder.points
	char text[64];
} recorder_item;

typedef struct recorder
{
	recorder_item items[RECORDER_MAX_ITEMS];
	int item_count;
	vec2s points[RECORDER_MAX_POINTS];
	int point_total;
	int counts[REC_KIND_COUNT];
	bool overflow;
} recorder;

static inline recorder_item* recorder_add( recorder* r, recorder_kind kind, kcc_color color )
{
	r->counts[kind] += 1;
	if ( r->item_count >= RECORDER_MAX_ITEMS )
	{
		r->overflow = true;
		return NULL;
	}
	recorder_item* item = r->items + r->item_count++;
	memset( item, 0, sizeof( *item ) );
	item->kind = kind;
	item->color = color;
	return item;
}

static inline void recorder_segment( vec2s a, vec2s b, kcc_color color, void* context )
{
	recorder_item* item = recorder_add( (recorder*)context, REC_SEGMENT, color );
	if ( item != NULL )
	{
		item->a = a;
		item->b = b;
	}
}

static inline void recorder_polygon_kind( recorder* r, recorder_kind kind, const vec2s* points, int count,
										  kcc_color color )
{
	recorder_item* item = recorder_add( r, kind, color );
	if ( item == NULL || r->point_total + count > RECORDER_MAX_POINTS )
	{
		r->overflow = true;
		return;
	}
	item->first_point = r->point_total;
	item->point_count = count;
	memcpy( r->points + r->point_total, points, sizeof( vec2s ) * (size_t)count );
	r->point_total += count;
}

static inline void recorder_polygon( const vec2s* points, int count, kcc_color color, void* context )
{
	recorder_polygon_kind( (recorder*)context, REC_POLYGON, points, count, color );
}

static inline void recorder_solid_polygon( const vec2s* points, int count, kcc_color color, void* context )
{
	recorder_polygon_kind( (recorder*)context, REC_SOLID_POLYGON, points, count, color );
}

static inline void recorder_circle( vec2s center, float radius, kcc_color color, void* context )
{
	recorder_item* item = recorder_add( (recorder*)context, REC_CIRCLE, color );
	if ( item != NULL )
	{
		item->a = center;
		item->radius = radius;
	}
}

static inline void recorder_capsule( vec2s a, vec2s b, float radius, kcc_color color, void* context )
{
	recorder_item* item = recorder_add( (recorder*)context, REC_CAPSULE, color );
	if ( item != NULL )
	{
		item->a = a;
		item->b = b;
		item->radius = radius;
	}
}

static inline void recorder_arc( vec2s center, float radius, float start, float sweep, kcc_color color, void* context )
{
	recorder_item* item = recorder_add( (recorder*)context, REC_ARC, color );
	if ( item != NULL )
	{
		item->a = center;
		item->radius = radius;
		item->start = start;
		item->sweep = sweep;
	}
}

static inline void recorder_point( vec2s p, float size, kcc_color color, void* context )
{
	recorder_item* item = recorder_add( (recorder*)context, REC_POINT, color );
	if ( item != NULL )
	{
		item->a = p;
		item->radius = size;
	}
}

static inline void recorder_text( vec2s p, const char* text, kcc_color color, void* context )
{
	recorder_item* item = recorder_add( (recorder*)context, REC_TEXT, color );
	if ( item != NULL )
	{
		item->a = p;
		strncpy( item->text, text, sizeof( item->text ) - 1 );
	}
}

/// A draw with every callback recording into r.
static inline kcc_debug_draw recorder_draw( recorder* r )
{
	memset( r, 0, sizeof( *r ) );
	kcc_debug_draw draw = kcc_default_debug_draw();
	draw.draw_segment = recorder_segment;
	draw.draw_polygon = recorder_polygon;
	draw.draw_solid_polygon = recorder_solid_polygon;
	draw.draw_circle = recorder_circle;
	draw.draw_capsule = recorder_capsule;
	draw.draw_arc = recorder_arc;
	draw.draw_point = recorder_point;
	draw.draw_text = recorder_text;
	draw.context = r;
	return draw;
}

static inline bool colors_equal( kcc_color a, kcc_color b )
{
	return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/// Items of a kind in a colour.
static inline int recorder_count( const recorder* r, recorder_kind kind, kcc_color color )
{
	int n = 0;
	for ( int i = 0; i < r->item_count; ++i )
	{
		n += r->items[i].kind == kind && colors_equal( r->items[i].color, color ) ? 1 : 0;
	}
	return n;
}

/// The first text item holding exactly text, or NULL.
static inline const recorder_item* recorder_find_text( const recorder* r, const char* text )
{
	for ( int i = 0; i < r->item_count; ++i )
	{
		if ( r->items[i].kind == REC_TEXT && strcmp( r->items[i].text, text ) == 0 )
		{
			return r->items + i;
		}
	}
	return NULL;
}
