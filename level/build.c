// SPDX-License-Identifier: MIT
// The one file that writes the cpSpace. Everything that can fail (memory for the level's records) is done first;
// then the Chipmunk bodies and shapes are made and added in one go, in the order they were described (Chipmunk
// numbers shapes in the order they are added, and the controller breaks ties by that number: the same map gives
// the same world, bit for bit). Moving bodies are placed here too (the runtime's steps and resets).
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Every double -> float narrowing of the level's records goes through here (rounded once, as the controller's
// bridge does).
float kcc_narrow( double x )
{
	return (float)x;
}

static vec2s kcc_narrow2( kcc_dvec2 p )
{
	return kcc_v2( kcc_narrow( p.x ), kcc_narrow( p.y ) );
}

static int kcc_compare_lookup( const void* a, const void* b )
{
	uintptr_t x = ( (const kcc_shape_lookup*)a )->key, y = ( (const kcc_shape_lookup*)b )->key;
	return x < y ? -1 : x > y;
}

// The level's public records, in its arena; nothing touches Chipmunk yet.
static kcc_level_status kcc_build_records( kcc_loader* L, kcc_level* level )
{
	kcc_arena* arena = &level->arena;
	int object_count = L->objects.count, platform_count = L->platforms.count, shape_count = L->shapes.count;
	int body_count = L->bodies.count, layer_count = L->layer_names.count;
	level->layer_names = kcc_arena_alloc( arena, (size_t)layer_count * sizeof( const char* ) + 1 );
	level->objects = kcc_arena_alloc( arena, (size_t)object_count * sizeof( kcc_level_object ) + 1 );
	level->platforms = kcc_arena_alloc( arena, (size_t)platform_count * sizeof( kcc_level_platform ) + 1 );
	level->platform_states = kcc_arena_alloc( arena, (size_t)platform_count * sizeof( kcc_platform_state ) + 1 );
	level->bodies = kcc_arena_alloc( arena, (size_t)body_count * sizeof( cpBody* ) + 1 );
	level->body_starts = kcc_arena_alloc( arena, (size_t)body_count * sizeof( kcc_dvec2 ) + 1 );
	level->shapes = kcc_arena_alloc( arena, (size_t)shape_count * sizeof( cpShape* ) + 1 );
	level->records = kcc_arena_alloc( arena, (size_t)shape_count * sizeof( kcc_shape_record ) + 1 );
	level->lookup = kcc_arena_alloc( arena, (size_t)shape_count * sizeof( kcc_shape_lookup ) + 1 );
	if ( level->layer_names == NULL || level->objects == NULL || level->platforms == NULL ||
		 level->platform_states == NULL || level->bodies == NULL || level->body_starts == NULL ||
		 level->shapes == NULL || level->records == NULL || level->lookup == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	if ( layer_count > 0 )
	{
		memcpy( level->layer_names, L->layer_names.items, (size_t)layer_count * sizeof( const char* ) );
	}
	level->layer_count = layer_count;
	for ( int i = 0; i < platform_count; ++i )
	{
		const kcc_platform_desc* desc = KCC_LIST_AT( L->platforms, kcc_platform_desc, i );
		const kcc_raw_object* path = KCC_LIST_AT( L->objects, kcc_raw_object, desc->path );
		const kcc_piece* line = KCC_LIST_AT( L->pieces, kcc_piece, path->first_piece );
		// A closed path (a polygon, or a polyline in loop mode) repeats its first point at the end.
		bool closed = path->closed || desc->mode == KCC_PATH_LOOP;
		int n = line->count + ( closed ? 1 : 0 );
		kcc_platform_state* state = level->platform_states + i;
		state->dpoints = kcc_arena_alloc( arena, (size_t)n * sizeof( kcc_dvec2 ) );
		state->cumulative = kcc_arena_alloc( arena, (size_t)n * sizeof( double ) );
		vec2s* points = kcc_arena_alloc( arena, (size_t)n * sizeof( vec2s ) );
		if ( state->dpoints == NULL || state->cumulative == NULL || points == NULL )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		for ( int k = 0; k < n; ++k )
		{
			state->dpoints[k] = *KCC_LIST_AT( L->points, kcc_dvec2, line->first + ( k % line->count ) );
			points[k] = kcc_narrow2( state->dpoints[k] );
			state->cumulative[k] = k == 0 ? 0.0
										  : state->cumulative[k - 1] + hypot( state->dpoints[k].x - state->dpoints[k - 1].x,
																			  state->dpoints[k].y - state->dpoints[k - 1].y );
		}
		kcc_level_platform* p = level->platforms + i;
		p->object = level->objects + desc->object;
		p->path = level->objects + desc->path;
		p->point_count = n;
		p->points = points;
		p->length = kcc_narrow( state->cumulative[n - 1] );
		p->speed = kcc_narrow( desc->speed );
		p->mode = desc->mode;
	}
	level->platform_count = platform_count;
	return KCC_LEVEL_OK;
}

static cpShape* kcc_make_shape( kcc_loader* L, const kcc_shape_desc* d, cpBody* body, kcc_dvec2 origin,
								cpVect* scratch )
{
	const kcc_dvec2* p = KCC_LIST_AT( L->shape_points, kcc_dvec2, d->first );
	for ( int i = 0; i < d->count; ++i )
	{
		scratch[i] = cpv( p[i].x - origin.x, p[i].y - origin.y );
	}
	cpShape* shape;
	switch ( d->kind )
	{
		case KCC_DESC_CIRCLE:
			shape = cpCircleShapeNew( body, d->radius, scratch[0] );
			break;
		case KCC_DESC_SEGMENT:
			shape = cpSegmentShapeNew( body, scratch[0], scratch[1], 0.0 );
			break;
		default:
			shape = cpPolyShapeNew( body, d->count, scratch, cpTransformIdentity, 0.0 );
			break;
	}
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, d->category, CP_ALL_CATEGORIES ) );
	cpShapeSetSensor( shape, d->sensor ? cpTrue : cpFalse );
	return shape;
}

kcc_level_status kcc_level_build( kcc_loader* L, kcc_level* level )
{
	if ( kcc_build_records( L, level ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	int max_points = 1;
	for ( int i = 0; i < L->shapes.count; ++i )
	{
		int n = KCC_LIST_AT( L->shapes, kcc_shape_desc, i )->count;
		max_points = n > max_points ? n : max_points;
	}
	cpVect* scratch = malloc( (size_t)max_points * sizeof( cpVect ) );
	cpShape** statics = malloc( (size_t)( L->shapes.count > 0 ? L->shapes.count : 1 ) * sizeof( cpShape* ) );
	if ( scratch == NULL || statics == NULL )
	{
		free( scratch );
		free( statics );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	level->pixels_per_unit = kcc_narrow( L->pixels_per_unit );
	level->size = kcc_v2( kcc_narrow( L->map_width_tiles * L->tile_width / L->pixels_per_unit ),
						  kcc_narrow( L->map_height_px / L->pixels_per_unit ) );
	level->tile_size = kcc_v2( kcc_narrow( L->tile_width / L->pixels_per_unit ),
							   kcc_narrow( L->tile_height / L->pixels_per_unit ) );
	level->map_properties = L->map_properties;
	level->map_property_count = L->map_property_count;
	// Bodies, then shapes, made off the space.
	cpBody* static_body = cpSpaceGetStaticBody( level->space );
	for ( int i = 0; i < L->bodies.count; ++i )
	{
		kcc_dvec2 at = *KCC_LIST_AT( L->bodies, kcc_dvec2, i );
		level->bodies[i] = cpBodyNewKinematic();
		cpBodySetPosition( level->bodies[i], cpv( at.x, at.y ) );
		level->body_starts[i] = at;
	}
	level->body_count = L->bodies.count;
	for ( int i = 0; i < L->shapes.count; ++i )
	{
		const kcc_shape_desc* d = KCC_LIST_AT( L->shapes, kcc_shape_desc, i );
		cpBody* body = d->body >= 0 ? level->bodies[d->body] : static_body;
		kcc_dvec2 origin = d->body >= 0 ? level->body_starts[d->body] : ( kcc_dvec2 ){ 0.0, 0.0 };
		level->shapes[i] = kcc_make_shape( L, d, body, origin, scratch );
		level->records[i] = ( kcc_shape_record ){ d->object, d->layer };
		level->lookup[i] = ( kcc_shape_lookup ){ (uintptr_t)level->shapes[i], i };
	}
	level->shape_count = L->shapes.count;
	free( scratch );
	qsort( level->lookup, (size_t)level->shape_count, sizeof( kcc_shape_lookup ), kcc_compare_lookup );
	for ( int i = 0; i < L->objects.count; ++i )
	{
		const kcc_raw_object* raw = KCC_LIST_AT( L->objects, kcc_raw_object, i );
		kcc_level_object* o = level->objects + i;
		o->id = raw->id;
		o->name = raw->name;
		o->class_name = raw->class_name;
		o->layer_name = raw->layer_name;
		o->kind = raw->kind;
		kcc_dvec2 center = { 0.5 * ( raw->bounds.min.x + raw->bounds.max.x ), 0.5 * ( raw->bounds.min.y + raw->bounds.max.y ) };
		o->position = kcc_narrow2( raw->has_point ? raw->point : center );
		o->bounds.min = kcc_narrow2( raw->bounds.min );
		o->bounds.max = kcc_narrow2( raw->bounds.max );
		o->body = raw->body >= 0 ? level->bodies[raw->body] : static_body;
		o->shape_count = raw->shape_count;
		o->shapes = raw->shape_count > 0 ? level->shapes + raw->first_shape : NULL;
		o->property_count = raw->property_count;
		o->properties = raw->properties;
	}
	level->object_count = L->objects.count;
	for ( int i = 0; i < level->platform_count; ++i )
	{
		const kcc_platform_desc* desc = KCC_LIST_AT( L->platforms, kcc_platform_desc, i );
		const kcc_raw_object* raw = KCC_LIST_AT( L->objects, kcc_raw_object, desc->object );
		level->platforms[i].body = level->bodies[raw->body];
		level->platforms[i].start = kcc_narrow2( level->body_starts[raw->body] );
		level->platform_states[i].position = level->body_starts[raw->body];
		level->platform_states[i].start = level->body_starts[raw->body];
	}
	// Into the space: bodies first (Chipmunk wants a shape's body in the space), then the moving bodies' shapes in
	// order, then the static ones in the order that keeps Chipmunk's default tree shallow (it also tells the
	// controllers' static index).
	for ( int i = 0; i < level->body_count; ++i )
	{
		cpSpaceAddBody( level->space, level->bodies[i] );
	}
	int static_count = 0;
	for ( int i = 0; i < level->shape_count; ++i )
	{
		if ( cpShapeGetBody( level->shapes[i] ) == static_body )
		{
			statics[static_count++] = level->shapes[i];
		}
		else
		{
			cpSpaceAddShape( level->space, level->shapes[i] );
		}
	}
	kcc_status added = kcc_space_add_static_shapes( level->space, statics, static_count );
	KCC_ASSERT( added == KCC_OK, "kcc_level_build: the level's static shapes were refused" );
	(void)added;
	free( statics );
	level->in_space = true;
	level->info = L->info;
	level->info.object_count = level->object_count;
	level->info.shape_count = level->shape_count;
	level->info.body_count = level->body_count;
	return KCC_LEVEL_OK;
}

void kcc_level_unbuild( kcc_level* level )
{
	bool was_in_space = level->in_space;
	for ( int i = 0; i < level->shape_count; ++i )
	{
		if ( level->in_space )
		{
			cpSpaceRemoveShape( level->space, level->shapes[i] );
		}
		cpShapeFree( level->shapes[i] );
	}
	for ( int i = 0; i < level->body_count; ++i )
	{
		if ( level->in_space )
		{
			cpSpaceRemoveBody( level->space, level->bodies[i] );
		}
		cpBodyFree( level->bodies[i] );
	}
	level->shape_count = 0;
	level->body_count = 0;
	level->in_space = false;
	if ( was_in_space )
	{
		kcc_space_static_changed( level->space ); // the level's static shapes are gone from the controllers' index
	}
}

void kcc_level_place_body( kcc_level* level, cpBody* body, kcc_dvec2 position )
{
	cpBodySetPosition( body, cpv( position.x, position.y ) );
	kcc_space_reindex_body( level->space, body );
}
