// SPDX-License-Identifier: MIT
// Zones: the sensor shapes the character enters and leaves along the path it really moved (begin / end events in
// path order, so a dash through a thin checkpoint reports both), and those it overlaps at the end of the move.
#include "internal.h"
#include "../geometry/internal.h"

static int kcc_zone_index( const kcc_controller* c, const cpShape* shape )
{
	for ( int i = 0; i < c->zone_count; ++i )
	{
		if ( c->zones[i] == shape )
		{
			return i;
		}
	}
	return -1;
}

static void kcc_zone_event( kcc_move_accumulator* acc, cpShape* shape, kcc_sensor_event_type type, float travel )
{
	kcc_move_result* out = acc->out;
	if ( out == NULL )
	{
		return;
	}
	if ( out->sensor_event_count >= KCC_MAX_SENSOR_EVENTS )
	{
		// Zones are met in the query's order, not the path's: the events kept are the first ones along the path, so
		// one that comes before the last kept takes its place.
		acc->flags |= KCC_SENSOR_EVENTS_TRUNCATED;
		const kcc_sensor_event* last = out->sensor_events + KCC_MAX_SENSOR_EVENTS - 1;
		if ( last->travel < travel || ( last->travel == travel && last->type >= type ) )
		{
			return;
		}
		out->sensor_event_count -= 1;
	}
	// Insertion in path order; at one place, ends before begins (leaving one zone for the next).
	int i = out->sensor_event_count++;
	while ( i > 0 && ( out->sensor_events[i - 1].travel > travel ||
					   ( out->sensor_events[i - 1].travel == travel && out->sensor_events[i - 1].type < type ) ) )
	{
		out->sensor_events[i] = out->sensor_events[i - 1];
		--i;
	}
	out->sensor_events[i].shape = shape;
	out->sensor_events[i].type = type;
	out->sensor_events[i].travel = travel;
}

// The part [t_in, t_out] of the segment from a to b (character positions) along which the character overlaps the
// sensor piece; false when it never does. Both shapes are convex, so that part is one interval.
static bool kcc_zone_interval( const kcc_controller* c, vec2s a, vec2s b, const kcc_shape* sensor, float* t_in,
							   float* t_out )
{
	kcc_shape at_a, at_b;
	kcc_character_at( c, a, &at_a );
	vec2s d = glms_vec2_sub( b, a );
	kcc_cast_output in = kcc_shape_cast_trusted( &at_a, d, sensor, 0.0f );
	if ( in.hit == false )
	{
		return false;
	}
	kcc_character_at( c, b, &at_b );
	kcc_cast_output out = kcc_shape_cast_trusted( &at_b, glms_vec2_negate( d ), sensor, 0.0f );
	*t_in = in.fraction;
	*t_out = out.hit ? 1.0f - out.fraction : *t_in;
	return true;
}

void kcc_zones_track( kcc_controller* c, const vec2s* path, int count, float travel, kcc_move_accumulator* acc )
{
	kcc_aabb swept = kcc_aabb_offset( c->local_bounds, path[0] );
	for ( int i = 1; i < count; ++i )
	{
		swept = kcc_aabb_union( swept, kcc_aabb_offset( c->local_bounds, path[i] ) );
	}
	kcc_world_cover( c, swept );

	// Zones the character was inside that are no longer met (gone, or left by a teleport or a carry): they end here.
	for ( int z = 0; z < c->zone_count; ++z )
	{
		bool found = false;
		for ( int i = 0; i < c->move->candidate_count && found == false; ++i )
		{
			found = c->move->candidates[i].sensor && c->move->candidates[i].shape == c->zones[z];
		}
		if ( found == false )
		{
			kcc_zone_event( acc, c->zones[z], KCC_SENSOR_END, travel );
			c->zones[z--] = c->zones[--c->zone_count];
		}
	}

	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		kcc_candidate* cand = c->move->candidates + i;
		if ( cand->sensor == false || cand->piece != 0 )
		{
			continue;
		}
		int zone = kcc_zone_index( c, cand->shape );
		if ( zone < 0 && kcc_aabb_overlaps_aabb( swept, cand->bounds ) == false )
		{
			continue;
		}
		bool inside = zone >= 0;
		float along = travel;
		for ( int k = 0; k + 1 < count; ++k )
		{
			float length = glms_vec2_distance( path[k], path[k + 1] );
			// A polygon's fan pieces are parts of one convex shape: their intervals join into one.
			float t_in = 2.0f, t_out = -1.0f;
			for ( int j = i; j < c->move->candidate_count; ++j )
			{
				kcc_candidate* piece = c->move->candidates + j;
				float a, b;
				if ( piece->shape == cand->shape && piece->sensor &&
					 kcc_zone_interval( c, path[k], path[k + 1], &kcc_candidate_ready( c, piece )->core, &a, &b ) )
				{
					t_in = kcc_minf( t_in, a );
					t_out = kcc_maxf( t_out, b );
				}
			}
			bool met = t_in <= t_out;
			if ( inside && ( met == false || t_in > 0.0f ) )
			{
				kcc_zone_event( acc, cand->shape, KCC_SENSOR_END, along );
				inside = false;
			}
			if ( inside == false && met )
			{
				kcc_zone_event( acc, cand->shape, KCC_SENSOR_BEGIN, along + t_in * length );
				inside = true;
			}
			if ( inside && t_out < 1.0f )
			{
				kcc_zone_event( acc, cand->shape, KCC_SENSOR_END, along + t_out * length );
				inside = false;
			}
			along += length;
		}
		if ( count == 1 )
		{
			// No motion: the character is inside whatever overlaps it where it stands.
			kcc_shape at;
			kcc_character_at( c, path[0], &at );
			bool overlapping = false;
			for ( int j = i; j < c->move->candidate_count && overlapping == false; ++j )
			{
				kcc_candidate* piece = c->move->candidates + j;
				overlapping = piece->shape == cand->shape && piece->sensor &&
							  kcc_overlap( &at, &kcc_candidate_ready( c, piece )->core );
			}
			if ( overlapping != inside )
			{
				kcc_zone_event( acc, cand->shape, overlapping ? KCC_SENSOR_BEGIN : KCC_SENSOR_END, travel );
				inside = overlapping;
			}
		}
		if ( inside && zone < 0 && c->zone_count < KCC_MAX_ZONES )
		{
			c->zones[c->zone_count++] = cand->shape;
		}
		else if ( inside == false && zone >= 0 )
		{
			c->zones[zone] = c->zones[--c->zone_count];
		}
	}
}

// Sensors overlapping the final shape, first in kcc_candidate_before's order, each shape once.
void kcc_zones_report( kcc_controller* c, vec2s p, kcc_move_result* out )
{
	out->sensor_count = 0;
	kcc_shape character;
	kcc_character_at( c, p, &character );
	kcc_aabb bounds = kcc_aabb_offset( c->local_bounds, p );
	kcc_world_cover( c, bounds );
	const kcc_candidate* last = NULL;
	while ( out->sensor_count < KCC_MAX_SENSORS )
	{
		const kcc_candidate* next = NULL;
		for ( int i = 0; i < c->move->candidate_count; ++i )
		{
			kcc_candidate* cand = c->move->candidates + i;
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
