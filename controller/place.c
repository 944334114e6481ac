// SPDX-License-Identifier: MIT
// Spawning: where a character stands on the floor below a point. A character of the def, its lowest point a skin
// above the point, is dropped straight down by one cast of a move (the same candidates, filter and one-way rules; a
// shallow overlap at the start pushed out first), with nothing that a move would do besides: no slide, snap, step,
// push or zone event. The controller made for it leaves the space before the call returns.
#include "internal.h"

kcc_status kcc_place_on_floor( cpSpace* space, const kcc_controller_def* def, vec2s point, float max_drop,
							   vec2s* position )
{
	if ( space == NULL || def == NULL || position == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( kcc_is_valid_vec2( point ) == false || kcc_is_valid_float( max_drop ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( kcc_controller_def_problem( def ) != NULL || max_drop < 0.0f )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( max_drop + def->skin > def->max_displacement )
	{
		return KCC_ERROR_TOO_LARGE;
	}
	if ( cpSpaceIsLocked( space ) )
	{
		return KCC_ERROR_SPACE_LOCKED;
	}
	kcc_controller_def drop = *def;
	drop.position = point;
	drop.mode = KCC_MODE_GROUNDED;
	drop.max_slides = 1; // the first contact ends the drop: no slide down a slope
	drop.snap_distance = 0.0f;
	drop.step_height = 0.0f;
	drop.corner_correction = 0.0f;
	drop.pushable_categories = 0; // crates are floors here, never pushed
	drop.sensor_mask = 0;
	drop.mass = 0.0f;
	kcc_controller* c = kcc_controller_create( space, &drop );
	if ( c == NULL )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	vec2s up = c->def.up;
	float lift = drop.skin - c->bottom_offset; // from the position to a skin above the lowest point
	vec2s start = kcc_v2( point.x + up.x * lift, point.y + up.y * lift );
	float reach = max_drop + drop.skin;
	kcc_move_result r;
	kcc_status status = kcc_controller_set_position( c, start );
	if ( status == KCC_OK )
	{
		status = kcc_controller_move( c, kcc_v2( -up.x * reach, -up.y * reach ), &r );
	}
	kcc_controller_destroy( c );
	if ( status != KCC_OK )
	{
		return status;
	}
	if ( ( r.flags & KCC_ON_FLOOR ) == 0 || ( r.flags & KCC_CRUSHED ) != 0 )
	{
		return KCC_ERROR_BLOCKED; // nothing walkable within max_drop, or no room at the point
	}
	*position = r.position;
	return KCC_OK;
}
