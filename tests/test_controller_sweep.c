// SPDX-License-Identifier: MIT
// The floor sweep (controller/sweep.c) casts its candidates nearest first by a bound of their distance, and stops once
// no cast left can change its answer. Its result must be the one of casting every candidate the swept box meets, bit
// for bit, on uneven tile fields with ramps, round obstacles and polygons split into pieces, for the three test
// characters resting, hovering and sunk a little, swept by short and long probes; and it must skip casts doing so.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../controller/internal.h"
#include "../geometry/internal.h"
#include "controller_scene.h"

static float random_float( uint32_t* state, float lo, float hi )
{
	*state = *state * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (float)( *state >> 8 ) / 16777216.0f;
}

// The floor sweep as every candidate reaching the swept box cast in the list's order: the answer to match.
static kcc_sweep reference_floor_sweep( kcc_controller* c, vec2s from, vec2s translation )
{
	kcc_sweep best = { 0 };
	float len = glms_vec2_norm( translation );
	best.travel = len;
	best.distance = len;
	kcc_aabb start = kcc_aabb_offset( c->local_bounds, from );
	kcc_aabb swept = kcc_aabb_inflate( kcc_aabb_union( start, kcc_aabb_offset( start, translation ) ), KCC_CULL_MARGIN );
	vec2s dir = glms_vec2_scale( translation, 1.0f / len );
	kcc_shape moving;
	kcc_character_at( c, from, &moving );
	float best_allowed = FLT_MAX;
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		kcc_candidate* cand = c->move->candidates + i;
		if ( cand->blocks == false || kcc_aabb_overlaps_aabb( swept, cand->bounds ) == false )
		{
			continue;
		}
		kcc_candidate_ready( c, cand );
		kcc_cast_output out = kcc_shape_cast_trusted( &moving, translation, &cand->core, 0.0f );
		if ( out.hit == false )
		{
			continue;
		}
		vec2s n = out.normal;
		float distance, allowed;
		if ( out.fraction <= 0.0f && kcc_has_normal( n ) == false )
		{
			kcc_penetration_output pen = kcc_penetration_trusted( &cand->core, &moving );
			if ( pen.overlapping == false || kcc_has_normal( pen.normal ) == false ||
				 glms_vec2_dot( dir, pen.normal ) >= 0.0f )
			{
				continue;
			}
			n = pen.normal;
			distance = 0.0f;
			allowed = 0.0f;
		}
		else
		{
			float approach = -glms_vec2_dot( dir, n );
			if ( approach <= 0.0f )
			{
				continue;
			}
			distance = out.fraction * len;
			allowed = distance - kcc_skin_backoff( c->def.skin, approach );
			allowed = allowed > 0.0f ? allowed : 0.0f;
		}
		best_allowed = kcc_minf( best_allowed, allowed );
		best.blocked = true;
		if ( kcc_classify_normal( n, c->def.up, c->cos_floor, c->def.mode ) != KCC_KIND_FLOOR )
		{
			continue;
		}
		if ( best.hit == false || distance < best.distance ||
			 ( distance == best.distance && kcc_candidate_before( cand, best.candidate ) ) )
		{
			best.hit = true;
			best.distance = distance;
			best.normal = n;
			best.point = out.point;
			best.candidate = cand;
		}
	}
	if ( best.blocked )
	{
		best.travel = best_allowed;
	}
	return best;
}

static bool same_float( float a, float b )
{
	return memcmp( &a, &b, sizeof( float ) ) == 0;
}

static bool same_sweep( const kcc_sweep* a, const kcc_sweep* b )
{
	return a->hit == b->hit && a->blocked == b->blocked && same_float( a->travel, b->travel ) &&
		   same_float( a->distance, b->distance ) && same_float( a->normal.x, b->normal.x ) &&
		   same_float( a->normal.y, b->normal.y ) && same_float( a->point.x, b->point.x ) &&
		   same_float( a->point.y, b->point.y ) && a->candidate == b->candidate;
}

// An uneven field: columns of 1x1 tiles (neighbours often level: equal distances, the tie-break decides), ramps,
// circles, capsules and a 12-vertex polygon (split into pieces: its candidates are cast in the list's order).
static cpShape* build_field( scene* s, uint32_t* rng )
{
	for ( int x = -12; x < 12; ++x )
	{
		int height = (int)random_float( rng, 0.0f, 2.99f );
		for ( int y = -2; y < height; ++y )
		{
			scene_add_tile( s, x, y );
		}
		float kind = random_float( rng, 0.0f, 1.0f );
		if ( kind < 0.15f )
		{
			scene_add_slope( s, kcc_v2( (float)x, (float)height ), random_float( rng, 0.2f, 0.7f ), 1.0f, 0.5f );
		}
		else if ( kind < 0.25f )
		{
			scene_add_circle( s, kcc_v2( (float)x + random_float( rng, 0.2f, 0.8f ), (float)height ),
							  random_float( rng, 0.1f, 0.4f ) );
		}
		else if ( kind < 0.3f )
		{
			scene_add_segment( s, kcc_v2( (float)x, (float)height + 0.1f ), kcc_v2( (float)x + 0.8f, (float)height ),
							   random_float( rng, 0.0f, 0.1f ) );
		}
	}
	cpVect ring[12];
	for ( int i = 0; i < 12; ++i )
	{
		double angle = 2.0 * CP_PI * (double)i / 12.0;
		ring[i] = cpv( 5.5 + 0.9 * cos( angle ), 3.0 + 0.6 * sin( angle ) );
	}
	cpShape* big = cpSpaceAddShape( s->space, cpPolyShapeNewRaw( cpSpaceGetStaticBody( s->space ), 12, ring, 0.0 ) );
	scene_commit( s, 0 );
	return big;
}

static void test_ordered_floor_sweep_matches_every_cast( void** state )
{
	(void)state;
	uint32_t rng = 2024u;
	int cases = 0, hits = 0, skipped = 0;
	for ( int field = 0; field < 6; ++field )
	{
		scene* s = scene_create( field % 2 == 0 ? 1.0f : -1.0f );
		cpShape* big = build_field( s, &rng );
		for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
		{
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.5f, 8.0f ) );
			kcc_controller* c = kcc_controller_create( s->space, &def );
			assert_non_null( c );
			for ( int k = 0; k < 400; ++k )
			{
				// Somewhere above the field: resting within the skin, hovering, or sunk a little into it.
				float x = random_float( &rng, -11.5f, 11.5f );
				float y = random_float( &rng, 0.0f, 4.0f ) + test_character_half_height( kind );
				float r = random_float( &rng, 0.0f, 1.0f );
				if ( r < 0.5f )
				{
					// Just above a tile level: where a walk keeps the character.
					y = floorf( y - test_character_half_height( kind ) ) + test_character_half_height( kind ) +
						random_float( &rng, -0.002f, 0.02f );
				}
				float reach = random_float( &rng, 0.01f, r < 0.8f ? 0.2f : 2.0f );
				vec2s from = kcc_v2( x - 0.5f, y - 8.0f ); // local: the controller stands at (0.5, 8)
				vec2s translation = kcc_v2( 0.0f, -reach );
				c->move->origin = kcc_controller_get_position( c );
				kcc_aabb start = kcc_aabb_offset( c->local_bounds, from );
				kcc_aabb region = kcc_aabb_union( start, kcc_aabb_offset( start, translation ) );
				kcc_world_gather( c, kcc_aabb_inflate( region, 0.1f ) );
				kcc_sweep got = kcc_sweep_floor( c, from, translation, true );
				int unconverted = 0;
				for ( int i = 0; i < c->move->candidate_count; ++i )
				{
					unconverted += c->move->candidates[i].converted ? 0 : 1;
				}
				kcc_sweep expected = reference_floor_sweep( c, from, translation );
				int reached = 0;
				for ( int i = 0; i < c->move->candidate_count; ++i )
				{
					reached += c->move->candidates[i].converted ? 1 : 0;
				}
				skipped += reached - ( c->move->candidate_count - unconverted );
				// Without the point (the ground probe's): the rest the same.
				kcc_sweep bare = kcc_sweep_floor( c, from, translation, false );
				bare.point = got.point;
				assert_true( same_sweep( &bare, &got ) );
				if ( same_sweep( &got, &expected ) == false )
				{
					fail_msg( "%s at (%.9g, %.9g) down %.9g: hit %d/%d distance %.9g/%.9g travel %.9g/%.9g",
							  test_character_name( kind ), (double)x, (double)y, (double)reach, got.hit, expected.hit,
							  (double)got.distance, (double)expected.distance, (double)got.travel,
							  (double)expected.travel );
				}
				cases += 1;
				hits += got.hit ? 1 : 0;
			}
			kcc_controller_destroy( c );
		}
		cpSpaceRemoveShape( s->space, big );
		cpShapeFree( big );
		scene_destroy( s );
	}
	print_message( "%d sweeps, %d on a floor, %d casts skipped\n", cases, hits, skipped );
	assert_true( hits > cases / 3 );
	// Resting on level tiles, the neighbour's cast is skipped most of the time.
	assert_true( skipped > cases / 10 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_ordered_floor_sweep_matches_every_cast ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
