// SPDX-License-Identifier: MIT
// Zones: the sensor shapes the character overlaps, reported in the move's result.
#include "internal.h"

// Sensors overlapping the final shape, first in kcc_candidate_before's order, each shape once.
void kcc_zones_report( kcc_controller* c, vec2s p, kcc_move_result* out )
{
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
	kcc_world_cover( c, bounds );
	out->sensor_count = 0;
	const kcc_candidate* last = NULL;
	while ( out->sensor_count < KCC_MAX_SENSORS )
	{
		const kcc_candidate* next = NULL;
		for ( int i = 0; i < c->candidate_count; ++i )
		{
			kcc_candidate* cand = c->candidates + i;
			if ( cand->sensor == false || ( last != NULL && kcc_candidate_before( last, cand ) == false ) ||
				 ( next != NULL && kcc_candidate_before( cand, next ) == false ) ||
				 kcc_aabb_overlaps_aabb( bounds, cand->bounds ) == false )
			{
				continue;
			}
			kcc_candidate_ready( c, cand );
			if ( kcc_overlap( &character, &cand->core ) )
			{
				next = cand;
			}
		}
		if ( next == NULL )
		{
			break;
		}
		last = next;
		bool listed = false; // a polygon's fan pieces are one shape
		for ( int k = 0; k < out->sensor_count; ++k )
		{
			listed |= out->sensors[k] == next->shape;
		}
		if ( listed == false )
		{
			out->sensors[out->sensor_count++] = next->shape;
		}
	}
}
