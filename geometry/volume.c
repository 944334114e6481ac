// SPDX-License-Identifier: MIT
// 2.5D volumes: a ground-plane shape extruded over a closed height interval, and seed 003's attack box.
#include "internal.h"

#include <string.h>

static kcc_volume kcc_invalid_volume( void )
{
	kcc_volume v;
	memset( &v, 0, sizeof( v ) );
	v.shape.type = KCC_SHAPE_INVALID;
	return v;
}

static bool kcc_height_interval_is_valid( float z_min, float z_max )
{
	return kcc_is_valid_float( z_min ) && kcc_is_valid_float( z_max ) && z_min <= z_max;
}

kcc_volume kcc_make_volume( const kcc_shape* shape, float z_min, float z_max )
{
	bool shape_ok = kcc_shape_is_valid( shape );
	KCC_ASSERT( shape_ok, "kcc_make_volume: shape is invalid" );
	KCC_ASSERT( kcc_is_valid_float( z_min ) && kcc_is_valid_float( z_max ), "kcc_make_volume: height is not finite" );
	KCC_ASSERT( !( z_min > z_max ), "kcc_make_volume: z_min is greater than z_max" );
	if ( shape_ok == false || kcc_height_interval_is_valid( z_min, z_max ) == false )
	{
		return kcc_invalid_volume();
	}
	kcc_volume v;
	v.shape = *shape;
	v.z_min = z_min;
	v.z_max = z_max;
	return v;
}

static bool kcc_volume_is_usable( const kcc_volume* v )
{
	return v != NULL && v->shape.type != KCC_SHAPE_INVALID && kcc_height_interval_is_valid( v->z_min, v->z_max );
}

bool kcc_volume_overlap( const kcc_volume* a, const kcc_volume* b )
{
	bool a_ok = kcc_volume_is_usable( a ), b_ok = kcc_volume_is_usable( b );
	KCC_ASSERT( a_ok && b_ok, "kcc_volume_overlap: volume is invalid" );
	if ( a_ok == false || b_ok == false )
	{
		return false;
	}
	// closed intervals: resting exactly on top counts
	if ( a->z_min > b->z_max || b->z_min > a->z_max )
	{
		return false;
	}
	return kcc_overlap( &a->shape, &b->shape );
}

bool kcc_volume_contains_point( const kcc_volume* v, vec3s p )
{
	bool ok = kcc_volume_is_usable( v );
	KCC_ASSERT( ok, "kcc_volume_contains_point: volume is invalid" );
	if ( ok == false || !( v->z_min <= p.z && p.z <= v->z_max ) )
	{
		return false;
	}
	return kcc_contains_point( &v->shape, kcc_v2( p.x, p.y ) );
}

kcc_volume kcc_make_attack_volume( vec2s origin, float z, float facing, float width, float length, float height,
								   float drop )
{
	bool finite = kcc_is_valid_vec2( origin ) && kcc_is_valid_float( z ) && kcc_is_valid_float( facing ) &&
				  kcc_is_valid_float( width ) && kcc_is_valid_float( length ) && kcc_is_valid_float( height ) &&
				  kcc_is_valid_float( drop );
	KCC_ASSERT( finite, "kcc_make_attack_volume: an input is not finite" );
	KCC_ASSERT( !( width < 0.0f || length < 0.0f || height < 0.0f ),
				"kcc_make_attack_volume: width, length or height is negative" );
	if ( finite == false || width < 0.0f || length < 0.0f || height < 0.0f )
	{
		return kcc_invalid_volume();
	}
	// The box starts at the character and reaches length forward along the facing; centred across it.
	float c = cosf( facing ), s = sinf( facing );
	float half_length = 0.5f * length;
	vec2s center = kcc_v2( origin.x + c * half_length, origin.y + s * half_length );
	kcc_shape box = kcc_make_obb( center, kcc_v2( half_length, 0.5f * width ), facing );
	float bottom = z - drop;
	return kcc_make_volume( &box, bottom, bottom + height );
}

bool kcc_point_in_oriented_box( vec3s center, vec3s half_extents, float yaw, vec3s p )
{
	bool ok = kcc_is_valid_float( yaw ) && half_extents.x >= 0.0f && half_extents.y >= 0.0f && half_extents.z >= 0.0f;
	KCC_ASSERT( ok, "kcc_point_in_oriented_box: yaw is not finite or half extents are negative or NaN" );
	if ( ok == false )
	{
		return false;
	}
	// Into the box frame: rotate the offset by -yaw (seed 003 compared world-axis offsets, wrong once rotated).
	float c = cosf( yaw ), s = sinf( yaw );
	float dx = p.x - center.x, dy = p.y - center.y, dz = p.z - center.z;
	float local_x = c * dx + s * dy;
	float local_y = -s * dx + c * dy;
	// written as "inside" tests so a NaN anywhere gives false
	return fabsf( local_x ) <= half_extents.x && fabsf( local_y ) <= half_extents.y && fabsf( dz ) <= half_extents.z;
}
