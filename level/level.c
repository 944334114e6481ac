// SPDX-License-Identifier: MIT
// The level at run time: platforms moved along their paths each frame (by position, from the clock, so a path is
// followed exactly whatever the frame rate and never drifts), reset, and the queries a game asks (objects by
// name, the object or layer a shape came from, platforms).
#include "internal.h"

#include <math.h>
#include <string.h>

static void kcc_level_destroy_later( cpSpace* space, void* key, void* data )
{
	(void)space;
	(void)data;
	kcc_level_destroy( key );
}

void kcc_level_destroy( kcc_level* level )
{
	if ( level == NULL )
	{
		return;
	}
	if ( level->in_space && cpSpaceIsLocked( level->space ) )
	{
		// Chipmunk can not remove shapes from a locked space (a callback of a query or of cpSpaceStep): the level goes
		// when the space unlocks, in Chipmunk's post-step callback. A second destroy meanwhile adds nothing (same key).
		cpSpaceAddPostStepCallback( level->space, kcc_level_destroy_later, level, NULL );
		return;
	}
	kcc_level_unbuild( level );
	kcc_arena_free( &level->arena );
	free( level );
}

// The point at distance d along the path (0 <= d <= its length).
static kcc_dvec2 kcc_path_point( const kcc_platform_state* state, int count, double d )
{
	int lo = 0, hi = count - 1;
	while ( hi - lo > 1 )
	{
		int mid = ( lo + hi ) / 2;
		if ( state->cumulative[mid] <= d )
		{
			lo = mid;
		}
		else
		{
			hi = mid;
		}
	}
	double span = state->cumulative[hi] - state->cumulative[lo];
	double t = span > 0.0 ? ( d - state->cumulative[lo] ) / span : 0.0;
	t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
	kcc_dvec2 a = state->dpoints[lo], b = state->dpoints[hi];
	kcc_dvec2 p = { a.x + ( b.x - a.x ) * t, a.y + ( b.y - a.y ) * t };
	return p;
}

// Where the platform's body is at time t.
static kcc_dvec2 kcc_platform_at( const kcc_level* level, int i, double t )
{
	const kcc_level_platform* p = level->platforms + i;
	const kcc_platform_state* state = level->platform_states + i;
	double total = state->cumulative[p->point_count - 1];
	double s = (double)p->speed * t;
	double d;
	if ( p->mode == KCC_PATH_LOOP )
	{
		d = fmod( s, total );
	}
	else
	{
		d = fmod( s, 2.0 * total );
		d = d > total ? 2.0 * total - d : d;
	}
	kcc_dvec2 q = kcc_path_point( state, p->point_count, d );
	kcc_dvec2 at = { state->start.x + ( q.x - state->dpoints[0].x ), state->start.y + ( q.y - state->dpoints[0].y ) };
	return at;
}

// Why the level's runtime can not run now: a status, or KCC_OK.
static kcc_status kcc_level_usable( const kcc_level* level )
{
	if ( level == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	// Chipmunk aborts on a reindex in a locked space (a callback of a query or of cpSpaceStep).
	return cpSpaceIsLocked( level->space ) ? KCC_ERROR_SPACE_LOCKED : KCC_OK;
}

kcc_status kcc_level_step( kcc_level* level, float dt )
{
	kcc_status status = kcc_level_usable( level );
	if ( status != KCC_OK )
	{
		return status;
	}
	if ( isfinite( dt ) == 0 )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( dt < 0.0f )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( dt == 0.0f )
	{
		return KCC_OK; // a paused frame
	}
	level->time += (double)dt;
	for ( int i = 0; i < level->platform_count; ++i )
	{
		kcc_platform_state* state = level->platform_states + i;
		kcc_dvec2 at = kcc_platform_at( level, i, level->time );
		state->velocity = kcc_v2( kcc_narrow( ( at.x - state->position.x ) / dt ), kcc_narrow( ( at.y - state->position.y ) / dt ) );
		state->position = at;
		kcc_level_place_body( level, level->platforms[i].body, at );
	}
	return KCC_OK;
}

kcc_status kcc_level_reset( kcc_level* level )
{
	kcc_status status = kcc_level_usable( level );
	if ( status != KCC_OK )
	{
		return status;
	}
	level->time = 0.0;
	for ( int b = 0; b < level->body_count; ++b )
	{
		kcc_level_place_body( level, level->bodies[b], level->body_starts[b] );
	}
	for ( int i = 0; i < level->platform_count; ++i )
	{
		level->platform_states[i].position = kcc_platform_at( level, i, 0.0 );
		level->platform_states[i].velocity = kcc_v2( 0.0f, 0.0f );
	}
	return KCC_OK;
}

double kcc_level_get_time( const kcc_level* level )
{
	return level != NULL ? level->time : 0.0;
}

kcc_level_info kcc_level_get_info( const kcc_level* level )
{
	kcc_level_info none;
	memset( &none, 0, sizeof( none ) );
	return level != NULL ? level->info : none;
}

cpSpace* kcc_level_get_space( const kcc_level* level )
{
	return level != NULL ? level->space : NULL;
}

vec2s kcc_level_get_size( const kcc_level* level )
{
	return level != NULL ? level->size : kcc_v2( 0.0f, 0.0f );
}

vec2s kcc_level_get_tile_size( const kcc_level* level )
{
	return level != NULL ? level->tile_size : kcc_v2( 0.0f, 0.0f );
}

float kcc_level_get_pixels_per_unit( const kcc_level* level )
{
	return level != NULL ? level->pixels_per_unit : 0.0f;
}

int kcc_level_object_count( const kcc_level* level )
{
	return level != NULL ? level->object_count : 0;
}

const kcc_level_object* kcc_level_get_object( const kcc_level* level, int index )
{
	return level != NULL && index >= 0 && index < level->object_count ? level->objects + index : NULL;
}

const kcc_level_object* kcc_level_find( const kcc_level* level, kcc_level_object_kind kind, const char* name )
{
	for ( int i = 0; level != NULL && i < level->object_count; ++i )
	{
		const kcc_level_object* o = level->objects + i;
		if ( o->kind == kind && ( name == NULL || strcmp( o->name, name ) == 0 ) )
		{
			return o;
		}
	}
	return NULL;
}

const kcc_level_object* kcc_level_find_object( const kcc_level* level, const char* name )
{
	for ( int i = 0; level != NULL && name != NULL && i < level->object_count; ++i )
	{
		if ( strcmp( level->objects[i].name, name ) == 0 )
		{
			return level->objects + i;
		}
	}
	return NULL;
}

static int kcc_shape_index( const kcc_level* level, const cpShape* shape )
{
	uintptr_t key = (uintptr_t)shape;
	int lo = 0, hi = level != NULL ? level->shape_count - 1 : -1;
	while ( lo <= hi )
	{
		int mid = ( lo + hi ) / 2;
		if ( level->lookup[mid].key < key )
		{
			lo = mid + 1;
		}
		else if ( level->lookup[mid].key > key )
		{
			hi = mid - 1;
		}
		else
		{
			return level->lookup[mid].index;
		}
	}
	return -1;
}

const kcc_level_object* kcc_level_object_of_shape( const kcc_level* level, const cpShape* shape )
{
	int i = kcc_shape_index( level, shape );
	return i >= 0 && level->records[i].object >= 0 ? level->objects + level->records[i].object : NULL;
}

const char* kcc_level_get_shape_name( const kcc_level* level, const cpShape* shape )
{
	int i = kcc_shape_index( level, shape );
	if ( i < 0 )
	{
		return NULL;
	}
	return level->records[i].object >= 0 ? level->objects[level->records[i].object].name
										 : level->layer_names[level->records[i].layer];
}

int kcc_level_platform_count( const kcc_level* level )
{
	return level != NULL ? level->platform_count : 0;
}

const kcc_level_platform* kcc_level_get_platform( const kcc_level* level, int index )
{
	return level != NULL && index >= 0 && index < level->platform_count ? level->platforms + index : NULL;
}

const kcc_level_platform* kcc_level_find_platform( const kcc_level* level, const char* name )
{
	for ( int i = 0; level != NULL && name != NULL && i < level->platform_count; ++i )
	{
		if ( strcmp( level->platforms[i].object->name, name ) == 0 )
		{
			return level->platforms + i;
		}
	}
	return NULL;
}

vec2s kcc_level_get_platform_velocity( const kcc_level* level, const kcc_level_platform* platform )
{
	if ( level == NULL || platform == NULL || platform < level->platforms ||
		 platform >= level->platforms + level->platform_count )
	{
		return kcc_v2( 0.0f, 0.0f );
	}
	return level->platform_states[platform - level->platforms].velocity;
}

const kcc_level_property* kcc_level_get_object_property( const kcc_level_object* object, const char* name )
{
	return object != NULL && name != NULL ? kcc_find_property( object->properties, object->property_count, name )
										  : NULL;
}

const kcc_level_property* kcc_level_get_map_property( const kcc_level* level, const char* name )
{
	return level != NULL && name != NULL
			   ? kcc_find_property( level->map_properties, level->map_property_count, name )
			   : NULL;
}
