// SPDX-License-Identifier: MIT
// Corner correction (Celeste's ledge nudge): a jump that clips a ceiling's corner with the edge of the character is
// nudged sideways around it, and an airborne sideways move that clips a ledge's corner with the bottom of the
// character is nudged up onto it, instead of being stopped.
#include "internal.h"

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
		float need = glms_vec2_dot( hit->point, d ) - kcc_character_lowest_along( c, p, d ) + c->def.skin;
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
