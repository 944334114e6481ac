// SPDX-License-Identifier: MIT
// Corner correction (Celeste's ledge nudge): a jump that clips a ceiling's corner with the edge of the character is
// nudged sideways around it, and an airborne sideways move that clips a ledge's corner with the bottom of the
// character is nudged up onto it, instead of being stopped.
#include "internal.h"

// Lowest value of dot( x, d ) over the character at local position p (its trailing edge along d, rounding
// included).
static float kcc_trailing_along( const kcc_controller* c, vec2s p, vec2s d )
{
	const kcc_shape* s = &c->local_shape;
	float lowest;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			lowest = glms_vec2_dot( s->circle.center, d );
			break;
		case KCC_SHAPE_CAPSULE:
			lowest = kcc_minf( glms_vec2_dot( s->capsule.a, d ), glms_vec2_dot( s->capsule.b, d ) );
			break;
		default:
			lowest = glms_vec2_dot( s->polygon.vertices[0], d );
			for ( int i = 1; i < s->polygon.count; ++i )
			{
				lowest = kcc_minf( lowest, glms_vec2_dot( s->polygon.vertices[i], d ) );
			}
			break;
	}
	return lowest - c->rounding + glms_vec2_dot( p, d );
}

bool kcc_corner_nudge( kcc_controller* c, vec2s p, vec2s r, const kcc_sweep* hit, bool on_floor, vec2s* nudged )
{
	float limit = c->def.corner_correction;
	float length = glms_vec2_norm( r );
	if ( limit <= 0.0f || length <= 0.0f || c->def.mode != KCC_MODE_GROUNDED )
	{
		return false;
	}
	vec2s up = c->def.up;
	vec2s side = kcc_v2( up.y, -up.x );
	float rising = glms_vec2_dot( r, up ) / length;
	vec2s directions[2];
	int count = 0;
	if ( rising > 0.5f && glms_vec2_dot( hit->normal, up ) < 0.0f )
	{
		// A jump against something facing down: around it, to either side.
		directions[count++] = side;
		directions[count++] = glms_vec2_negate( side );
	}
	else if ( on_floor == false && fabsf( rising ) < 0.5f )
	{
		// A sideways move in the air against a ledge: up onto it.
		directions[count++] = up;
	}
	for ( int k = 0; k < count; ++k )
	{
		vec2s d = directions[k];
		// How far the character's trailing edge must move along d to clear the contact, plus the skin.
		float need = glms_vec2_dot( hit->point, d ) - kcc_trailing_along( c, p, d ) + c->def.skin;
		if ( need <= 0.0f || need > limit )
		{
			continue;
		}
		kcc_sweep aside = kcc_sweep_character( c, p, glms_vec2_scale( d, need ) );
		if ( aside.travel + KCC_ROUNDING_DISTANCE < need )
		{
			continue; // no room to the side
		}
		vec2s q = glms_vec2_muladds( d, need, p );
		kcc_sweep onward = kcc_sweep_character( c, q, r );
		if ( onward.travel <= hit->travel + c->def.skin )
		{
			continue; // blocked there as well: no corner to slip around
		}
		*nudged = q;
		return true;
	}
	return false;
}
