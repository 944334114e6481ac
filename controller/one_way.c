// SPDX-License-Identifier: MIT
// One-way platforms: they block only a character coming from above, and one can be dropped through on request.
#include "internal.h"
#include "../geometry/internal.h"

bool kcc_one_way_blocks( const kcc_controller* c, vec2s from, vec2s normal, vec2s point )
{
	vec2s up = c->def.up;
	float facing = glms_vec2_dot( normal, up );
	if ( facing < c->cos_floor )
	{
		return false; // the side or the underside of a one-way shape
	}
	// A round bottom resting on a surface of this normal touches it rounding * (1 - facing) above its lowest point.
	float bottom = glms_vec2_dot( from, up ) + c->bottom_offset;
	float contact = glms_vec2_dot( point, up ) - c->one_way_tolerance - c->rounding * ( 1.0f - facing );
	return bottom >= contact;
}

bool kcc_one_way_passing( const kcc_controller* c, vec2s normal, float depth )
{
	return glms_vec2_dot( normal, c->def.up ) < c->cos_floor || depth > c->one_way_tolerance;
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
