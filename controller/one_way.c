// SPDX-License-Identifier: MIT
// One-way platforms: they block only a character coming from above, and one can be dropped through on request.
#include "internal.h"
#include "../geometry/internal.h"

bool kcc_one_way_blocks( const kcc_controller* c, vec2s from, vec2s normal, vec2s point )
{
	if ( kcc_within_floor_angle( normal, c->def.up, c->cos_floor ) == false )
	{
		return false; // the side or the underside of a one-way shape
	}
	// Met from above: where the cast started, the character was on the outer side of the surface's line through the
	// contact (its lowest point along the normal above it, within the tolerance), whatever its shape and up.
	return kcc_character_lowest_along( c, from, normal ) >= glms_vec2_dot( point, normal ) - c->one_way_tolerance;
}

bool kcc_one_way_passing( const kcc_controller* c, vec2s normal, float depth )
{
	return kcc_within_floor_angle( normal, c->def.up, c->cos_floor ) == false || depth > c->one_way_tolerance;
}

void kcc_one_way_update_drop( kcc_controller* c, vec2s p )
{
	if ( c->drop_shape == NULL )
	{
		return;
	}
	// Dropping ends once the character is more than the tolerance away from the shape (below it, or it jumped),
	// or the shape is gone from the query.
	bool near = false;
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_world_cover( c, kcc_aabb_inflate( kcc_aabb_offset( c->local_bounds, p ), c->one_way_tolerance ) );
	for ( int i = 0; i < c->candidate_count && near == false; ++i )
	{
		kcc_candidate* cand = c->candidates + i;
		if ( cand->shape == c->drop_shape )
		{
			kcc_candidate_ready( c, cand );
			near = kcc_distance_trusted( &character, &cand->core ).distance <= c->one_way_tolerance;
		}
	}
	if ( near == false )
	{
		c->drop_shape = NULL;
	}
}
