// SPDX-License-Identifier: MIT
// Zones: the sensor shapes the character overlaps, reported in the move's result.
#include "internal.h"

// Sensors overlapping the final shape, smallest key first, each shape once.
void kcc_zones_report( kcc_controller* c, vec2s p, kcc_move_result* out )
{
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
	out->sensor_count = 0;
	uint32_t last_key = 0;
	bool have_last = false;
	while ( out->sensor_count < KCC_MAX_SENSORS )
	{
		const kcc_candidate* next = NULL;
		for ( int i = 0; i < c->candidate_count; ++i )
		{
			kcc_candidate* cand = c->candidates + i;
			if ( cand->sensor == false || ( have_last && cand->key <= last_key ) ||
				 ( next != NULL && cand->key >= next->key ) || kcc_aabb_overlaps_aabb( bounds, cand->bounds ) == false )
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
		out->sensors[out->sensor_count++] = next->shape;
		last_key = next->key;
		have_last = true;
	}
}
