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

bool kcc_one_way_on_top( const kcc_controller* c, const kcc_candidate* cand, vec2s normal, float depth )
{
	if ( kcc_within_floor_angle( normal, c->def.up, c->cos_floor ) == false || depth > c->one_way_tolerance )
	{
		return false; // inside it, or against its side or underside
	}
	// Within the tolerance below the top, the character is on it only if it came from above: it stood on that shape
	// at the last move, or was not inside it where this move started (something pushed it in since), or the game has
	// just put it there (no past to go by). Rising through the top from below, it is passing however shallow.
	if ( cand->shape == c->floor_shape || c->placed )
	{
		return true;
	}
	kcc_shape start;
	kcc_character_at( c, kcc_v2( 0.0f, 0.0f ), &start );
	kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &start );
	return pen.overlapping == false || pen.depth <= 0.0f;
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
