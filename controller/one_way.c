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
	if ( kcc_within_floor_angle( normal, c->def.up, c->cos_floor ) == false )
	{
		return false; // against its side or underside
	}
	// On the shape it stood on at the last move (or was just put on: no past to go by), within the tolerance.
	if ( cand->shape == c->floor_shape || c->placed )
	{
		return depth <= c->one_way_tolerance;
	}
	// Inside it where the move started, after a move that ended clear of every one-way shape: the shape came up into
	// the character since (a rising lift), which was above it. Otherwise the character is passing through it: it was
	// inside it already, or a cast took it in during this move (from below or the side: casts never enter a one-way
	// top from above), however shallow the overlap.
	if ( c->one_way_inside )
	{
		return false;
	}
	kcc_shape start;
	kcc_character_at( c, kcc_v2( 0.0f, 0.0f ), &start );
	kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &start );
	return pen.overlapping && pen.depth > 0.0f;
}

void kcc_one_way_update_categories( kcc_controller* c, vec2s p )
{
	// Dropping ends once the character is more than the tolerance away from the shape (below it, or it jumped), or
	// the shape is gone from the query.
	bool near = false;
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
	kcc_world_cover( c, kcc_aabb_inflate( bounds, c->one_way_tolerance ) );
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		kcc_candidate* cand = c->move->candidates + i;
		if ( cand->shape == c->drop_shape && near == false )
		{
			kcc_candidate_ready( c, cand );
			near = kcc_distance_trusted( &character, &cand->core ).distance <= c->one_way_tolerance;
		}
		else if ( cand->blocks && c->one_way_inside == false && kcc_aabb_overlaps_aabb( bounds, cand->bounds ) )
		{
			kcc_candidate_ready( c, cand );
			if ( cand->one_way )
			{
				kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &character );
				c->one_way_inside = pen.overlapping && pen.depth > 0.0f;
			}
		}
	}
	if ( near == false )
	{
		c->drop_shape = NULL;
	}
}
