// SPDX-License-Identifier: MIT
// The level's run-time state as plain bytes, for saves, replays and rollback: the clock, each platform's place on its
// path and velocity, and the pose and velocity of every body the level owns (platforms and crates, which characters
// push). Restoring it with the characters' states and replaying the same inputs gives bit-identical frames.
#include "internal.h"

#include <math.h>
#include <string.h>

#define KCC_LEVEL_STATE_MAGIC 0x6b63634cu // "kccL"

// The bytes, in this order (memcpy'd: the caller's buffer needs no alignment).
typedef struct kcc_state_header
{
	uint32_t magic;
	uint32_t map_check; // of the bodies' starts: a state of another map is refused
	int32_t body_count;
	int32_t platform_count;
	double time;
} kcc_state_header;

typedef struct kcc_body_record
{
	double x, y, angle, vx, vy, w;
} kcc_body_record;

typedef struct kcc_platform_record
{
	kcc_dvec2 position;
	vec2s velocity;
} kcc_platform_record;

// No padding: the bytes of a state are all defined (two states of the same moment compare equal with memcmp).
_Static_assert( sizeof( kcc_state_header ) == 24 && sizeof( kcc_body_record ) == 48 &&
					sizeof( kcc_platform_record ) == 24,
				"the state's records have no padding" );

// FNV-1a over the bits of the bodies' starting positions and the counts.
static uint32_t kcc_map_check( const kcc_level* level )
{
	uint32_t h = 2166136261u;
	const unsigned char* bytes = (const unsigned char*)level->body_starts;
	size_t n = (size_t)level->body_count * sizeof( kcc_dvec2 );
	for ( size_t i = 0; i < n; ++i )
	{
		h = ( h ^ bytes[i] ) * 16777619u;
	}
	return ( h ^ (uint32_t)level->platform_count ) * 16777619u;
}

size_t kcc_level_state_size( const kcc_level* level )
{
	if ( level == NULL )
	{
		return 0;
	}
	return sizeof( kcc_state_header ) + (size_t)level->body_count * sizeof( kcc_body_record ) +
		   (size_t)level->platform_count * sizeof( kcc_platform_record );
}

kcc_status kcc_level_get_state( const kcc_level* level, void* state, size_t size )
{
	if ( level == NULL || state == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( size < kcc_level_state_size( level ) )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	unsigned char* out = state;
	kcc_state_header header = { KCC_LEVEL_STATE_MAGIC, kcc_map_check( level ), level->body_count,
								level->platform_count, level->time };
	memcpy( out, &header, sizeof( header ) );
	out += sizeof( header );
	for ( int i = 0; i < level->body_count; ++i )
	{
		const cpBody* body = level->bodies[i];
		cpVect p = cpBodyGetPosition( body ), v = cpBodyGetVelocity( body );
		kcc_body_record r = { p.x, p.y, cpBodyGetAngle( body ), v.x, v.y, cpBodyGetAngularVelocity( body ) };
		memcpy( out, &r, sizeof( r ) );
		out += sizeof( r );
	}
	for ( int i = 0; i < level->platform_count; ++i )
	{
		kcc_platform_record r = { level->platform_states[i].position, level->platform_states[i].velocity };
		memcpy( out, &r, sizeof( r ) );
		out += sizeof( r );
	}
	return KCC_OK;
}

static bool kcc_finite_body( const kcc_body_record* r )
{
	return isfinite( r->x ) && isfinite( r->y ) && isfinite( r->angle ) && isfinite( r->vx ) && isfinite( r->vy ) &&
		   isfinite( r->w );
}

// The whole state is checked before anything changes.
static bool kcc_state_valid( const kcc_level* level, const unsigned char* in, size_t size )
{
	kcc_state_header header;
	if ( size != kcc_level_state_size( level ) )
	{
		return false;
	}
	memcpy( &header, in, sizeof( header ) );
	if ( header.magic != KCC_LEVEL_STATE_MAGIC || header.map_check != kcc_map_check( level ) ||
		 header.body_count != level->body_count || header.platform_count != level->platform_count ||
		 !( header.time >= 0.0 ) || isfinite( header.time ) == 0 )
	{
		return false;
	}
	in += sizeof( header );
	for ( int i = 0; i < level->body_count; ++i, in += sizeof( kcc_body_record ) )
	{
		kcc_body_record r;
		memcpy( &r, in, sizeof( r ) );
		if ( kcc_finite_body( &r ) == false )
		{
			return false;
		}
	}
	for ( int i = 0; i < level->platform_count; ++i, in += sizeof( kcc_platform_record ) )
	{
		kcc_platform_record r;
		memcpy( &r, in, sizeof( r ) );
		if ( isfinite( r.position.x ) == 0 || isfinite( r.position.y ) == 0 ||
			 kcc_is_valid_vec2( r.velocity ) == false )
		{
			return false;
		}
	}
	return true;
}

kcc_status kcc_level_set_state( kcc_level* level, const void* state, size_t size )
{
	if ( level == NULL || state == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( kcc_state_valid( level, state, size ) == false )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( cpSpaceIsLocked( level->space ) )
	{
		return KCC_ERROR_SPACE_LOCKED;
	}
	const unsigned char* in = state;
	kcc_state_header header;
	memcpy( &header, in, sizeof( header ) );
	in += sizeof( header );
	level->time = header.time;
	for ( int i = 0; i < level->body_count; ++i, in += sizeof( kcc_body_record ) )
	{
		kcc_body_record r;
		memcpy( &r, in, sizeof( r ) );
		cpBody* body = level->bodies[i];
		cpBodySetAngle( body, r.angle );
		cpBodySetVelocity( body, cpv( r.vx, r.vy ) );
		cpBodySetAngularVelocity( body, r.w );
		kcc_level_place_body( level, body, ( kcc_dvec2 ){ r.x, r.y } );
	}
	for ( int i = 0; i < level->platform_count; ++i, in += sizeof( kcc_platform_record ) )
	{
		kcc_platform_record r;
		memcpy( &r, in, sizeof( r ) );
		level->platform_states[i].position = r.position;
		level->platform_states[i].velocity = r.velocity;
	}
	return KCC_OK;
}
