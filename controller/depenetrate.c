// SPDX-License-Identifier: MIT
// Depenetration: a character that starts a move overlapping solids (spawned inside, a platform moved into it) is
// pushed out along the penetration normals first, a bounded number of rounds.
#include "internal.h"
#include "../geometry/internal.h"

// Whether the character at local position p is passing through a one-way candidate (inside it, against its side or
// underside, or in its top without having come from above): then the push-out leaves it alone.
static bool kcc_passing_at( kcc_controller* c, const kcc_candidate* cand, vec2s p )
{
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &character );
	return pen.overlapping && kcc_has_normal( pen.normal ) &&
		   kcc_one_way_on_top( c, cand, pen.normal, pen.depth ) == false;
}

// Whether a one-way shape was moved into the character by its platform, so that the push-out must treat it as solid:
// the one it stood on at the last move (it was on top; a turning platform tilts it into the character), or one of
// the carrying body's shapes it was not passing through where the whole carry would have held it (a wall or a
// ceiling cut the carry short and the body moved on).
static bool kcc_moved_into( kcc_controller* c, const kcc_candidate* cand, vec2s start, vec2s normal )
{
	if ( cand->shape == c->floor_shape && kcc_within_floor_angle( normal, c->def.up, c->cos_floor ) )
	{
		return true;
	}
	if ( ( c->carry_missed.x == 0.0f && c->carry_missed.y == 0.0f ) ||
		 kcc_world_shape_body( cand ) != c->carry_body )
	{
		return false;
	}
	return kcc_passing_at( c, cand, glms_vec2_add( start, c->carry_missed ) ) == false;
}

vec2s kcc_depenetrate( kcc_controller* c, vec2s p, bool* pushed, bool* crushed )
{
	const vec2s start = p;
	*pushed = false;
	*crushed = false;
	int rounds = c->def.max_depenetration_iterations;
	vec2s last_normal = { { 0.0f, 0.0f } };
	for ( int round = 0; round <= rounds; ++round )
	{
		kcc_shape character;
		bool have_character = false;
		kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
		kcc_world_cover( c, kcc_depenetrate_box( c, bounds ) );
		const kcc_candidate* deepest = NULL;
		kcc_penetration_output deepest_pen = { 0 };
		for ( int i = 0; i < c->move->candidate_count; ++i )
		{
			kcc_candidate* cand = c->move->candidates + i;
			if ( kcc_depenetrate_meets( cand, bounds ) == false )
			{
				continue;
			}
			kcc_candidate_ready( c, cand );
			if ( have_character == false )
			{
				kcc_character_at( c, p, &character );
				have_character = true;
			}
			// Most candidates met here are not touched (a slope under the character, a tile's corner beside it).
			if ( kcc_separated_trusted( &cand->core, &character ) )
			{
				continue;
			}
			kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &character );
			if ( pen.overlapping == false || kcc_has_normal( pen.normal ) == false )
			{
				continue;
			}
			// Passing through a one-way shape: never pushed out sideways or up. One the character was not passing
			// through where the push-out started (it was above it), or that its platform moved into it, is solid to
			// the push: it never sinks into it.
			if ( cand->one_way && kcc_one_way_on_top( c, cand, pen.normal, pen.depth ) == false &&
				 ( round == 0 || kcc_passing_at( c, cand, start ) ) &&
				 kcc_moved_into( c, cand, start, pen.normal ) == false )
			{
				continue;
			}
			if ( deepest == NULL || pen.depth > deepest_pen.depth ||
				 ( pen.depth == deepest_pen.depth && kcc_candidate_before( cand, deepest ) ) )
			{
				deepest = cand;
				deepest_pen = pen;
			}
		}
		if ( deepest == NULL )
		{
			return p;
		}
		if ( round == rounds )
		{
			*crushed = true;
			return p;
		}
		// Out by the depth plus the skin, so the casts that follow do not start in contact. Except right after a
		// push the other way (a gap barely wider than the character, between a floor and a ceiling, say): the
		// previous push went one skin past the first surface, so the room left is skin - depth; going back by
		// (skin + depth) / 2 puts the character in the middle of it instead of into the first surface again.
		float push = deepest_pen.depth + c->def.skin;
		if ( round > 0 && glms_vec2_dot( deepest_pen.normal, last_normal ) < -KCC_OPPOSITE_COSINE )
		{
			push = 0.5f * push;
		}
		p = glms_vec2_muladds( deepest_pen.normal, push, p );
		last_normal = deepest_pen.normal;
		*pushed = true;
	}
	return p;
}

bool kcc_overlaps_solid( kcc_controller* c, const kcc_shape* shape, vec2s p, bool every_one_way_excepted )
{
	kcc_aabb bounds = kcc_aabb_offset( kcc_shape_bounds( shape ), p );
	kcc_world_gather_solids( c, kcc_aabb_inflate( bounds, c->def.skin ) );
	if ( c->move->candidate_overflow )
	{
		return true; // more solids there than the buffer holds: the shape can not be shown clear of them
	}
	kcc_shape placed;
	kcc_shape_at( shape, p, &placed );
	float height = kcc_shape_height_along( shape, c->def.up );
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		kcc_candidate* cand = c->move->candidates + i;
		if ( cand->blocks == false || kcc_aabb_overlaps_aabb( bounds, cand->bounds ) == false )
		{
			continue;
		}
		kcc_candidate_ready( c, cand ); // its roles (one-way) come with the conversion
		if ( cand->one_way && every_one_way_excepted )
		{
			continue;
		}
		kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &placed );
		if ( pen.overlapping && pen.depth > KCC_OVERLAP_TOLERANCE * height &&
			 ( cand->one_way == false || kcc_one_way_on_top( c, cand, pen.normal, pen.depth ) ) )
		{
			return true;
		}
	}
	return false;
}
