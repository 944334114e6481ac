// SPDX-License-Identifier: MIT
// The soak's random worlds (soak_world.h): randomness, level features, platforms, characters, the check after a
// move, and the crowd.
#include "soak_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------------------------
// Randomness

soak_source soak_source_seeded( uint64_t seed )
{
	soak_source s;
	memset( &s, 0, sizeof( s ) );
	s.state = seed;
	return s;
}

soak_source soak_source_bytes( const uint8_t* bytes, size_t size )
{
	soak_source s;
	memset( &s, 0, sizeof( s ) );
	s.bytes = bytes;
	s.size = size;
	return s;
}

uint64_t soak_next( soak_source* s )
{
	if ( s->bytes != NULL )
	{
		// Two bytes per draw: small inputs still make whole worlds, and a fuzzer's mutations stay local.
		uint64_t v = 0;
		for ( int i = 0; i < 2; ++i )
		{
			v = ( v << 8 ) | ( s->at < s->size ? s->bytes[s->at] : 0u );
			s->at += 1;
		}
		return v * 0x0001000100010001ull; // spread over 64 bits: uniform draws see every byte
	}
	uint64_t z = ( s->state += 0x9E3779B97F4A7C15ull );
	z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

bool soak_exhausted( const soak_source* s )
{
	return s->bytes != NULL && s->at >= s->size;
}

double soak_uniform( soak_source* s, double lo, double hi )
{
	double u = (double)( soak_next( s ) >> 11 ) * ( 1.0 / 9007199254740992.0 );
	return lo + ( hi - lo ) * u;
}

double soak_log_uniform( soak_source* s, double lo, double hi )
{
	return exp( soak_uniform( s, log( lo ), log( hi ) ) );
}

int soak_int( soak_source* s, int n )
{
	return n <= 1 ? 0 : (int)( ( soak_next( s ) >> 16 ) % (uint64_t)n );
}

bool soak_chance( soak_source* s, double p )
{
	return soak_uniform( s, 0.0, 1.0 ) < p;
}

// ---------------------------------------------------------------------------------------------------------------
// Worlds


soak_cache* soak_cache_of( const soak_world* w, int i )
{
	return &( (soak_world_private*)w )->cache[i];
}

void soak_cache_update( const soak_world* w, int i )
{
	soak_cache* c = soak_cache_of( w, i );
	soak_core_from_chipmunk( w->shapes[i].shape, w->shapes[i].kind, &c->core );
	soak_core_extent( &c->core, 1.0, 0.0, &c->lo_x, &c->hi_x );
	soak_core_extent( &c->core, 0.0, 1.0, &c->lo_y, &c->hi_y );
	c->valid = true;
}

soak_world* soak_world_new( double half_size )
{
	soak_world_private* p = calloc( 1, sizeof( soak_world_private ) );
	if ( p == NULL )
	{
		abort();
	}
	soak_world* w = &p->world;
	w->space = cpSpaceNew();
	w->half_size = half_size;
	w->dt = 1.0 / 60.0;
	return w;
}

int soak_register( soak_world* w, cpShape* s, soak_shape_kind kind, uint32_t roles, int owner )
{
	if ( w->shape_count >= SOAK_MAX_SHAPES )
	{
		return -1;
	}
	int i = w->shape_count++;
	w->shapes[i].shape = s;
	w->shapes[i].kind = kind;
	w->shapes[i].roles = roles;
	w->shapes[i].owner = owner;
	soak_cache_update( w, i );
	return i;
}

// Adds a level or platform shape with its role's filter; frees it when the table is full.
static int soak_add( soak_world* w, cpShape* s, soak_shape_kind kind, uint32_t roles )
{
	if ( w->shape_count >= SOAK_MAX_SHAPES )
	{
		cpShapeFree( s );
		return -1;
	}
	cpBitmask category = ( roles & SOAK_ROLE_ONE_WAY ) ? SOAK_CAT_ONE_WAY
						 : ( roles & SOAK_ROLE_GHOST ) ? SOAK_CAT_GHOST : SOAK_CAT_LEVEL;
	cpShapeSetFilter( s, cpShapeFilterNew( CP_NO_GROUP, category, CP_ALL_CATEGORIES ) );
	if ( roles & SOAK_ROLE_SENSOR )
	{
		cpShapeSetSensor( s, cpTrue );
	}
	cpSpaceAddShape( w->space, s );
	return soak_register( w, s, kind, roles, -1 );
}

void soak_world_destroy( soak_world* w )
{
	if ( w == NULL )
	{
		return;
	}
	for ( int i = 0; i < w->character_count; ++i )
	{
		kcc_controller_destroy( w->characters[i].c );
	}
	for ( int i = 0; i < w->shape_count; ++i )
	{
		if ( w->shapes[i].roles & SOAK_ROLE_CHARACTER )
		{
			continue;
		}
		cpSpaceRemoveShape( w->space, w->shapes[i].shape );
		cpShapeFree( w->shapes[i].shape );
	}
	for ( int i = 0; i < w->platform_count; ++i )
	{
		cpSpaceRemoveBody( w->space, w->platforms[i].body );
		cpBodyFree( w->platforms[i].body );
	}
	for ( int i = 0; i < w->crate_count; ++i )
	{
		cpSpaceRemoveBody( w->space, w->crates[i] );
		cpBodyFree( w->crates[i] );
	}
	cpSpaceFree( w->space );
	free( (soak_world_private*)w );
}

cpBody* soak_static( soak_world* w )
{
	return cpSpaceGetStaticBody( w->space );
}

static cpVect soak_rotate( cpVect v, double angle )
{
	double c = cos( angle ), s = sin( angle );
	return cpv( c * v.x - s * v.y, s * v.x + c * v.y );
}

static double soak_radius( soak_source* src, double p_round, double hi )
{
	return soak_chance( src, p_round ) ? soak_log_uniform( src, 0.002, hi ) : 0.0;
}

// A convex polygon of n random points around (0, 0) (an ellipse of radii rx, ry with jitter), turned by angle.
static int soak_random_points( soak_source* src, cpVect* out, int n, double rx, double ry, double angle )
{
	for ( int i = 0; i < n; ++i )
	{
		double a = 2.0 * SOAK_PI * ( i + soak_uniform( src, 0.0, 0.9 ) ) / n;
		double r = soak_uniform( src, 0.7, 1.0 );
		out[i] = soak_rotate( cpv( rx * r * cos( a ), ry * r * sin( a ) ), angle );
	}
	return n;
}

static void soak_translate_points( cpVect* v, int n, cpVect by )
{
	for ( int i = 0; i < n; ++i )
	{
		v[i] = cpvadd( v[i], by );
	}
}

static int soak_add_poly( soak_world* w, cpBody* body, const cpVect* v, int n, double radius, uint32_t roles )
{
	return soak_add( w, cpPolyShapeNew( body, n, v, cpTransformIdentity, radius ), SOAK_POLY, roles );
}

static int soak_add_box( soak_world* w, cpBody* body, double l, double b, double r, double t, double radius,
						 uint32_t roles )
{
	return soak_add( w, cpBoxShapeNew2( body, cpBBNew( l, b, r, t ), radius ), SOAK_POLY, roles );
}

static int soak_add_segment( soak_world* w, cpBody* body, cpVect a, cpVect b, double radius, uint32_t roles )
{
	return soak_add( w, cpSegmentShapeNew( body, a, b, radius ), SOAK_SEGMENT, roles );
}

static int soak_add_circle( soak_world* w, cpBody* body, cpVect c, double radius, uint32_t roles )
{
	return soak_add( w, cpCircleShapeNew( body, radius, c ), SOAK_CIRCLE, roles );
}

// A slab whose top starts at start and rises at angle over run, depth thick below its lower end.
static void soak_add_slope( soak_world* w, cpVect start, double angle, double run, double depth, double radius )
{
	double rise = run * tan( angle );
	double bottom = ( rise < 0.0 ? start.y + rise : start.y ) - depth;
	cpVect v[4] = { start, cpv( start.x + run, start.y + rise ), cpv( start.x + run, bottom ), cpv( start.x, bottom ) };
	soak_add_poly( w, soak_static( w ), v, 4, radius, 0 );
}

// Two arms meeting at vertex at the full opening angle, the opening facing direction facing (radians).
static void soak_add_crease( soak_world* w, soak_source* src, cpVect vertex, double opening, double facing )
{
	double length = soak_uniform( src, 0.3, 5.0 );
	double thickness = soak_uniform( src, 0.02, 1.0 );
	bool segments = soak_chance( src, 0.3 );
	double radius = soak_radius( src, 0.3, 0.2 );
	for ( int side = -1; side <= 1; side += 2 )
	{
		double a = facing + side * 0.5 * opening; // arm direction from the vertex
		cpVect dir = cpv( cos( a ), sin( a ) );
		cpVect far_end = cpvadd( vertex, cpvmult( dir, length ) );
		if ( segments )
		{
			soak_add_segment( w, soak_static( w ), vertex, far_end, radius, 0 );
			continue;
		}
		// The slab lies outside the opening: behind the arm, away from the facing direction.
		cpVect out = cpv( -dir.y * side, dir.x * side );
		if ( cpvdot( out, cpv( cos( facing ), sin( facing ) ) ) > 0.0 )
		{
			out = cpvneg( out );
		}
		cpVect v[4] = { vertex, far_end, cpvadd( far_end, cpvmult( out, thickness ) ), cpvadd( vertex, cpvmult( out, thickness ) ) };
		soak_add_poly( w, soak_static( w ), v, 4, radius, 0 );
	}
}

static cpVect soak_point_in( soak_source* src, double half )
{
	return cpv( soak_uniform( src, -half, half ), soak_uniform( src, -half, half ) );
}

static void soak_add_feature( soak_world* w, soak_source* src )
{
	double H = w->half_size;
	cpVect at = soak_point_in( src, H );
	cpBody* body = soak_static( w );
	cpVect v[16];
	switch ( soak_int( src, 17 ) )
	{
		case 0: // box
		{
			double hw = 0.5 * soak_log_uniform( src, 0.05, 6.0 ), hh = 0.5 * soak_log_uniform( src, 0.05, 6.0 );
			soak_add_box( w, body, at.x - hw, at.y - hh, at.x + hw, at.y + hh, soak_radius( src, 0.3, 0.5 ), 0 );
			break;
		}
		case 1: // random polygon, up to 12 vertices (more than 8 become fan pieces in the controller)
		case 2:
		{
			int n = 3 + soak_int( src, 10 );
			double rx = soak_log_uniform( src, 0.05, 4.0 ), ry = rx * soak_log_uniform( src, 0.1, 1.0 );
			soak_random_points( src, v, n, rx, ry, soak_uniform( src, 0.0, 2.0 * SOAK_PI ) );
			soak_translate_points( v, n, at );
			soak_add_poly( w, body, v, n, soak_radius( src, 0.4, 0.5 ), 0 );
			break;
		}
		case 3: // polygons Chipmunk accepts and the core would refuse: flat boxes, repeated and collinear vertices
		{
			double hw = soak_log_uniform( src, 0.1, 4.0 ), hh = soak_log_uniform( src, 0.05, 2.0 );
			double radius = soak_radius( src, 0.5, 0.2 );
			int style = soak_int( src, 3 );
			if ( style == 0 )
			{
				soak_add_box( w, body, at.x - hw, at.y, at.x + hw, at.y, radius, 0 );
				break;
			}
			cpVect q[5] = { cpv( -hw, -hh ), cpv( hw, -hh ), cpv( hw, hh ), cpv( -hw, hh ) };
			int n = 0;
			for ( int i = 0; i < 4; ++i )
			{
				v[n++] = cpvadd( at, q[i] );
				if ( i == 1 )
				{
					// a repeated vertex, or one in the middle of the right edge
					v[n++] = style == 1 ? cpvadd( at, q[i] ) : cpvadd( at, cpv( hw, 0.0 ) );
				}
			}
			double angle = soak_uniform( src, 0.0, 2.0 * SOAK_PI );
			for ( int i = 0; i < n; ++i )
			{
				v[i] = cpvadd( at, soak_rotate( cpvsub( v[i], at ), angle ) );
			}
			soak_add( w, cpPolyShapeNewRaw( body, n, v, radius ), SOAK_POLY, 0 );
			break;
		}
		case 4: // segment
		{
			double len = soak_log_uniform( src, 0.05, 8.0 ), a = soak_uniform( src, 0.0, 2.0 * SOAK_PI );
			cpVect b = cpvadd( at, cpvmult( cpv( cos( a ), sin( a ) ), len ) );
			soak_add_segment( w, body, at, b, soak_radius( src, 0.5, 0.3 ), 0 );
			break;
		}
		case 5: // terrain polyline: segments sharing end points
		{
			int n = 2 + soak_int( src, 8 );
			double radius = soak_radius( src, 0.4, 0.2 );
			cpVect p = at;
			for ( int i = 0; i < n; ++i )
			{
				double a = soak_uniform( src, -1.3, 1.3 ), len = soak_uniform( src, 0.2, 3.0 );
				cpVect q = cpvadd( p, cpvmult( cpv( cos( a ), sin( a ) ), len ) );
				soak_add_segment( w, body, p, q, radius, 0 );
				p = q;
			}
			break;
		}
		case 6: // circle
			soak_add_circle( w, body, at, soak_log_uniform( src, 0.03, 3.0 ), 0 );
			break;
		case 7: // slope of any angle
		{
			double angle = soak_uniform( src, -1.55, 1.55 );
			double run = soak_uniform( src, 0.5, 6.0 );
			if ( fabs( run * tan( angle ) ) > 8.0 )
			{
				run = 8.0 / fabs( tan( angle ) );
			}
			soak_add_slope( w, at, angle, run, soak_uniform( src, 0.05, 3.0 ), soak_radius( src, 0.2, 0.2 ) );
			break;
		}
		case 8: // crease of 20 to 170 degrees, mostly opening up
		{
			double opening = soak_uniform( src, 20.0, 170.0 ) * SOAK_PI / 180.0;
			double facing = soak_chance( src, 0.6 ) ? 0.5 * SOAK_PI : soak_uniform( src, 0.0, 2.0 * SOAK_PI );
			soak_add_crease( w, src, at, opening, facing );
			break;
		}
		case 9: // narrow gap: two walls (or a floor and a ceiling) a character's size apart
		{
			double gap = soak_log_uniform( src, 0.03, 2.5 ), len = soak_uniform( src, 0.5, 5.0 );
			double thick = soak_uniform( src, 0.05, 2.0 );
			if ( soak_chance( src, 0.5 ) )
			{
				soak_add_box( w, body, at.x - thick, at.y, at.x, at.y + len, 0.0, 0 );
				soak_add_box( w, body, at.x + gap, at.y, at.x + gap + thick, at.y + len, 0.0, 0 );
			}
			else
			{
				soak_add_box( w, body, at.x, at.y - thick, at.x + len, at.y, 0.0, 0 );
				soak_add_box( w, body, at.x, at.y + gap, at.x + len, at.y + gap + thick, 0.0, 0 );
			}
			break;
		}
		case 10: // stairs of separate boxes
		{
			int n = 2 + soak_int( src, 8 );
			double rise = soak_log_uniform( src, 0.02, 0.6 ), tread = soak_log_uniform( src, 0.05, 1.2 );
			double dir = soak_chance( src, 0.5 ) ? 1.0 : -1.0;
			for ( int i = 0; i < n; ++i )
			{
				double x0 = at.x + dir * i * tread, x1 = x0 + dir * tread;
				soak_add_box( w, body, fmin( x0, x1 ), at.y - 1.0, fmax( x0, x1 ), at.y + ( i + 1 ) * rise, 0.0, 0 );
			}
			break;
		}
		case 11: // row or column of separate tiles
		{
			int n = 2 + soak_int( src, 20 );
			double size = soak_chance( src, 0.5 ) ? 1.0 : soak_chance( src, 0.5 ) ? 0.5 : 0.25;
			bool column = soak_chance( src, 0.3 );
			for ( int i = 0; i < n; ++i )
			{
				double x = at.x + ( column ? 0.0 : i * size ), y = at.y + ( column ? i * size : 0.0 );
				soak_add_box( w, body, x, y, x + size, y + size, 0.0, 0 );
			}
			break;
		}
		case 12: // one-way platform: a thin box, a tilted slab or a segment
		{
			double len = soak_uniform( src, 0.3, 5.0 ), thick = soak_log_uniform( src, 0.01, 0.6 );
			double tilt = soak_chance( src, 0.3 ) ? soak_uniform( src, -0.6, 0.6 ) : 0.0;
			if ( soak_chance( src, 0.3 ) )
			{
				cpVect d = soak_rotate( cpv( len, 0.0 ), tilt );
				soak_add_segment( w, body, at, cpvadd( at, d ), soak_radius( src, 0.5, 0.1 ), SOAK_ROLE_ONE_WAY );
				break;
			}
			cpVect q[4] = { cpv( 0.0, -thick ), cpv( len, -thick ), cpv( len, 0.0 ), cpv( 0.0, 0.0 ) };
			for ( int i = 0; i < 4; ++i )
			{
				v[i] = cpvadd( at, soak_rotate( q[i], tilt ) );
			}
			soak_add_poly( w, body, v, 4, soak_radius( src, 0.3, 0.1 ), SOAK_ROLE_ONE_WAY );
			break;
		}
		case 13: // sensor
			if ( soak_chance( src, 0.5 ) )
			{
				soak_add_circle( w, body, at, soak_uniform( src, 0.1, 3.0 ), SOAK_ROLE_SENSOR );
			}
			else
			{
				double s = soak_uniform( src, 0.1, 3.0 );
				soak_add_box( w, body, at.x, at.y, at.x + s, at.y + soak_uniform( src, 0.02, 3.0 ), 0.0,
							  SOAK_ROLE_SENSOR );
			}
			break;
		case 14: // ghost: blocks only characters whose mask has its category
		{
			double s = soak_uniform( src, 0.1, 3.0 );
			soak_add_box( w, body, at.x, at.y, at.x + s, at.y + soak_uniform( src, 0.1, 3.0 ), 0.0, SOAK_ROLE_GHOST );
			break;
		}
		case 15: // gravel: many small shapes (fills the candidate buffers)
		{
			int n = 5 + soak_int( src, 40 );
			double spread = soak_uniform( src, 0.2, 2.0 );
			for ( int i = 0; i < n; ++i )
			{
				cpVect p = cpvadd( at, cpv( soak_uniform( src, -spread, spread ), soak_uniform( src, -spread, spread ) ) );
				double s = soak_log_uniform( src, 0.01, 0.3 );
				if ( soak_chance( src, 0.5 ) )
				{
					soak_add_circle( w, body, p, s, 0 );
				}
				else
				{
					soak_add_box( w, body, p.x, p.y, p.x + s, p.y + s, soak_radius( src, 0.3, 0.05 ), 0 );
				}
			}
			break;
		}
		default: // a rotated box
		{
			double hw = 0.5 * soak_log_uniform( src, 0.05, 6.0 ), hh = 0.5 * soak_log_uniform( src, 0.05, 3.0 );
			double angle = soak_uniform( src, 0.0, 2.0 * SOAK_PI );
			cpVect q[4] = { cpv( -hw, -hh ), cpv( hw, -hh ), cpv( hw, hh ), cpv( -hw, hh ) };
			for ( int i = 0; i < 4; ++i )
			{
				v[i] = cpvadd( at, soak_rotate( q[i], angle ) );
			}
			soak_add_poly( w, body, v, 4, soak_radius( src, 0.3, 0.3 ), 0 );
			break;
		}
	}
}

static void soak_add_ground( soak_world* w, soak_source* src )
{
	double H = w->half_size;
	double y = -0.6 * H;
	if ( soak_chance( src, 0.5 ) )
	{
		soak_add_box( w, soak_static( w ), -H, y - 2.0, H, y, 0.0, 0 );
		return;
	}
	double radius = soak_radius( src, 0.3, 0.1 );
	cpVect p = cpv( -H, y );
	while ( p.x < H )
	{
		double run = soak_uniform( src, 0.3, 3.0 ), rise = run * tan( soak_uniform( src, -0.8, 0.8 ) );
		cpVect q = cpv( p.x + run, fmax( fmin( p.y + rise, y + 2.0 ), y - 2.0 ) );
		soak_add_segment( w, soak_static( w ), p, q, radius, 0 );
		p = q;
	}
}

// A kinematic platform of one to three shapes, moved by velocity or by position, translating and / or turning.
static void soak_add_platform( soak_world* w, soak_source* src )
{
	if ( w->platform_count >= SOAK_MAX_PLATFORMS )
	{
		return;
	}
	soak_platform* p = &w->platforms[w->platform_count++];
	memset( p, 0, sizeof( *p ) );
	p->body = cpSpaceAddBody( w->space, cpBodyNewKinematic() );
	cpVect at = soak_point_in( src, w->half_size );
	p->base_x = at.x;
	p->base_y = at.y;
	p->base_angle = soak_chance( src, 0.3 ) ? soak_uniform( src, -SOAK_PI, SOAK_PI ) : 0.0;
	p->by_velocity = soak_chance( src, 0.5 );
	p->omega = 2.0 * SOAK_PI / soak_log_uniform( src, 0.2, 6.0 );
	p->phase = soak_uniform( src, 0.0, 2.0 * SOAK_PI );
	if ( soak_chance( src, 0.85 ) )
	{
		p->amp_x = soak_chance( src, 0.6 ) ? soak_uniform( src, 0.0, 4.0 ) : 0.0;
		p->amp_y = soak_chance( src, 0.6 ) ? soak_uniform( src, 0.0, 3.0 ) : 0.0;
	}
	p->swing = soak_chance( src, 0.3 ) ? soak_uniform( src, 0.0, 0.6 ) : 0.0;
	p->spin = soak_chance( src, 0.15 ) ? soak_uniform( src, -3.0, 3.0 ) : 0.0;
	cpBodySetPosition( p->body, at );
	cpBodySetAngle( p->body, p->base_angle );
	uint32_t roles = SOAK_ROLE_PLATFORM | ( soak_chance( src, 0.2 ) ? SOAK_ROLE_ONE_WAY : 0u );
	int shapes = 1 + soak_int( src, 3 );
	for ( int i = 0; i < shapes; ++i )
	{
		cpVect o = i == 0 ? cpvzero : cpv( soak_uniform( src, -1.5, 1.5 ), soak_uniform( src, -1.0, 1.0 ) );
		switch ( soak_int( src, 4 ) )
		{
			case 0:
			{
				double hw = soak_uniform( src, 0.2, 2.5 ), hh = soak_log_uniform( src, 0.03, 0.8 );
				soak_add_box( w, p->body, o.x - hw, o.y - hh, o.x + hw, o.y + hh, soak_radius( src, 0.3, 0.2 ), roles );
				break;
			}
			case 1:
			{
				cpVect v[8];
				int n = 3 + soak_int( src, 6 );
				soak_random_points( src, v, n, soak_uniform( src, 0.2, 2.0 ), soak_uniform( src, 0.1, 1.0 ),
									soak_uniform( src, 0.0, 2.0 * SOAK_PI ) );
				soak_translate_points( v, n, o );
				soak_add_poly( w, p->body, v, n, soak_radius( src, 0.3, 0.2 ), roles );
				break;
			}
			case 2:
				soak_add_circle( w, p->body, o, soak_uniform( src, 0.1, 1.5 ), roles );
				break;
			default:
			{
				double len = soak_uniform( src, 0.3, 4.0 );
				soak_add_segment( w, p->body, cpvsub( o, cpv( 0.5 * len, 0.0 ) ), cpvadd( o, cpv( 0.5 * len, 0.0 ) ),
								  soak_radius( src, 0.5, 0.2 ), roles );
				break;
			}
		}
	}
}

// A crate: a box (turned sometimes) on a body of its own, kinematic (pushable) or, one time in four, dynamic (a
// physics body that receives impulses and is stepped). Placed only where it is clear of every shape already there.
static bool soak_add_crate( soak_world* w, soak_source* src, cpVect at, double half, bool dynamic, double angle )
{
	if ( w->crate_count >= SOAK_MAX_CRATES || w->shape_count >= SOAK_MAX_SHAPES )
	{
		return false;
	}
	double hw = half * soak_uniform( src, 0.7, 1.3 ), hh = half * soak_uniform( src, 0.7, 1.3 );
	cpBody* body = dynamic ? cpBodyNew( 1.0, cpMomentForBox( 1.0, 2.0 * hw, 2.0 * hh ) ) : cpBodyNewKinematic();
	cpBodySetPosition( body, at );
	cpBodySetAngle( body, angle );
	double radius = soak_chance( src, 0.2 ) ? soak_uniform( src, 0.0, 0.1 ) : 0.0;
	cpShape* shape = cpBoxShapeNew( body, 2.0 * hw, 2.0 * hh, radius );
	cpShapeCacheBB( shape );
	soak_core core;
	soak_core_from_chipmunk( shape, SOAK_POLY, &core );
	for ( int i = 0; i < w->shape_count; ++i )
	{
		if ( w->shapes[i].shape != NULL && ( w->shapes[i].roles & SOAK_ROLE_SENSOR ) == 0 &&
			 soak_core_contact( &core, &soak_cache_of( w, i )->core ).depth > -0.02 )
		{
			cpShapeFree( shape );
			cpBodyFree( body );
			return false;
		}
	}
	cpSpaceAddBody( w->space, body );
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, SOAK_CAT_CRATE, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( w->space, shape );
	int index = soak_register( w, shape, SOAK_POLY, SOAK_ROLE_CRATE, -1 );
	w->crates[w->crate_count] = body;
	w->crate_shapes[w->crate_count++] = index;
	return true;
}

// Crates alone, and piles of them (a grid of boxes a little apart: a row on the ground, a heap top-down).
static void soak_add_crates( soak_world* w, soak_source* src, int count )
{
	while ( count > 0 && w->crate_count < SOAK_MAX_CRATES )
	{
		cpVect at = soak_point_in( src, w->half_size );
		double half = soak_log_uniform( src, 0.15, 0.8 );
		bool dynamic = soak_chance( src, 0.25 );
		if ( soak_chance( src, 0.4 ) )
		{
			int nx = 1 + soak_int( src, 4 ), ny = 1 + soak_int( src, 3 );
			double gap = soak_chance( src, 0.5 ) ? soak_uniform( src, 0.0, 0.05 ) : soak_uniform( src, 0.05, 0.5 );
			for ( int y = 0; y < ny && count > 0; ++y )
			{
				for ( int x = 0; x < nx && count > 0; ++x )
				{
					cpVect p = cpv( at.x + x * ( 2.6 * half + gap ), at.y + y * ( 2.6 * half + gap ) );
					count -= soak_add_crate( w, src, p, half, dynamic && soak_chance( src, 0.5 ), 0.0 ) ? 1 : 0;
				}
			}
			count -= 1;
			continue;
		}
		double angle = soak_chance( src, 0.3 ) ? soak_uniform( src, -SOAK_PI, SOAK_PI ) : 0.0;
		soak_add_crate( w, src, at, half, dynamic, angle );
		count -= 1;
	}
}

static bool soak_platforms_by_velocity( const soak_world* w )
{
	for ( int i = 0; i < w->platform_count; ++i )
	{
		if ( w->platforms[i].by_velocity )
		{
			return true;
		}
	}
	return false;
}

void soak_world_step_platforms( soak_world* w )
{
	double t0 = w->time, t1 = w->time + w->dt;
	for ( int i = 0; i < w->platform_count; ++i )
	{
		soak_platform* p = &w->platforms[i];
		if ( p->by_velocity )
		{
			// The velocity that takes the analytic path from t0 to t1 in one step.
			double x0 = p->amp_x * sin( p->omega * t0 + p->phase ), x1 = p->amp_x * sin( p->omega * t1 + p->phase );
			double y0 = p->amp_y * sin( p->omega * t0 + p->phase ), y1 = p->amp_y * sin( p->omega * t1 + p->phase );
			double a0 = p->swing * sin( p->omega * t0 ) + p->spin * t0, a1 = p->swing * sin( p->omega * t1 ) + p->spin * t1;
			cpBodySetVelocity( p->body, cpv( ( x1 - x0 ) / w->dt, ( y1 - y0 ) / w->dt ) );
			cpBodySetAngularVelocity( p->body, ( a1 - a0 ) / w->dt );
			continue;
		}
		// Offsets from the pose at time 0 (no jump on the first frame).
		double s1 = sin( p->omega * t1 + p->phase ) - sin( p->phase );
		cpBodySetPosition( p->body, cpv( p->base_x + p->amp_x * s1, p->base_y + p->amp_y * s1 ) );
		cpBodySetAngle( p->body, p->base_angle + p->swing * sin( p->omega * t1 ) + p->spin * t1 );
		cpSpaceReindexShapesForBody( w->space, p->body );
	}
	if ( w->steps_space )
	{
		cpSpaceStep( w->space, w->dt );
	}
	w->time = t1;
	w->frame += 1;
	for ( int i = 0; i < w->shape_count; ++i )
	{
		if ( w->shapes[i].roles & ( SOAK_ROLE_PLATFORM | SOAK_ROLE_CRATE ) )
		{
			soak_cache_update( w, i );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Characters

kcc_shape soak_make_character_shape( const soak_shape_spec* s )
{
	switch ( s->maker )
	{
		case 0:
			return kcc_make_circle( kcc_v2( s->p[0], s->p[1] ), s->radius );
		case 1:
			return kcc_make_capsule( kcc_v2( s->p[0], s->p[1] ), kcc_v2( s->p[2], s->p[3] ), s->radius );
		case 2:
			return kcc_make_box( kcc_v2( s->p[0], s->p[1] ), s->radius );
		case 3:
			return kcc_make_aabb( kcc_v2( s->p[0], s->p[1] ), kcc_v2( s->p[2], s->p[3] ) );
		case 4:
			return kcc_make_obb( kcc_v2( s->p[0], s->p[1] ), kcc_v2( s->p[2], s->p[3] ), s->angle );
		default:
			return kcc_make_polygon( s->points, s->count, s->radius );
	}
}

// A random shape of the kind, about size tall (thin: one side 2% to 10% of the other).
void soak_random_spec( soak_source* src, int kind, double size, bool thin, bool offset, soak_shape_spec* s )
{
	memset( s, 0, sizeof( *s ) );
	double ox = offset ? soak_uniform( src, -0.5, 0.5 ) * size : 0.0;
	double oy = offset ? soak_uniform( src, -0.5, 0.5 ) * size : 0.0;
	double ratio = thin ? soak_uniform( src, 0.02, 0.1 ) : soak_uniform( src, 0.3, 1.5 );
	switch ( kind )
	{
		case SOAK_KIND_CIRCLE:
			s->maker = 0;
			s->p[0] = (float)ox, s->p[1] = (float)oy;
			s->radius = (float)( 0.5 * size );
			break;
		case SOAK_KIND_CAPSULE:
		{
			s->maker = 1;
			double r = 0.5 * size * ( thin ? ratio : soak_uniform( src, 0.2, 1.0 ) );
			double half = 0.5 * size - r;
			double angle = soak_chance( src, 0.7 ) ? 0.0 : soak_chance( src, 0.3 ) ? 0.5 * SOAK_PI
																					: soak_uniform( src, -SOAK_PI, SOAK_PI );
			double dx = -sin( angle ) * half, dy = cos( angle ) * half;
			s->p[0] = (float)( ox - dx ), s->p[1] = (float)( oy - dy ), s->p[2] = (float)( ox + dx ), s->p[3] = (float)( oy + dy );
			s->radius = (float)r;
			break;
		}
		case SOAK_KIND_BOX:
		case SOAK_KIND_ROUNDED_BOX:
		{
			double hy = 0.5 * size, hx = hy * ratio;
			if ( soak_chance( src, 0.3 ) )
			{
				double t = hx;
				hx = hy, hy = t; // wide
			}
			int maker = kind == SOAK_KIND_ROUNDED_BOX || offset == false ? 2 : 3 + soak_int( src, 2 );
			if ( kind == SOAK_KIND_BOX && offset == false && soak_chance( src, 0.4 ) )
			{
				maker = 3 + soak_int( src, 2 );
			}
			s->maker = maker;
			if ( maker == 2 )
			{
				double r = kind == SOAK_KIND_ROUNDED_BOX ? fmin( hx, hy ) * soak_uniform( src, 0.05, 1.0 ) : 0.0;
				s->p[0] = (float)fmax( hx - 0.5 * r, 1.0e-3 ), s->p[1] = (float)fmax( hy - 0.5 * r, 1.0e-3 );
				s->radius = (float)r;
			}
			else if ( maker == 3 )
			{
				s->p[0] = (float)( ox - hx ), s->p[1] = (float)( oy - hy ), s->p[2] = (float)( ox + hx ), s->p[3] = (float)( oy + hy );
			}
			else
			{
				s->p[0] = (float)ox, s->p[1] = (float)oy, s->p[2] = (float)hx, s->p[3] = (float)hy;
				s->angle = (float)soak_uniform( src, -SOAK_PI, SOAK_PI );
			}
			break;
		}
		default:
		{
			s->maker = 5;
			int n = 3 + soak_int( src, 6 );
			cpVect v[KCC_MAX_POLYGON_VERTICES];
			double radius = kind == SOAK_KIND_ROUNDED_POLYGON ? soak_uniform( src, 0.02, 0.3 ) * size : 0.0;
			double core = 0.5 * size - radius;
			soak_random_points( src, v, n, core, core * ratio, soak_uniform( src, -SOAK_PI, SOAK_PI ) );
			for ( int i = 0; i < n; ++i )
			{
				s->points[i] = kcc_v2( (float)( v[i].x + ox ), (float)( v[i].y + oy ) );
			}
			s->count = n;
			s->radius = (float)radius;
			break;
		}
	}
}

double soak_shape_size( const kcc_shape* shape, double* smallest )
{
	soak_core core;
	soak_core_from_character( shape, kcc_v2( 0.0f, 0.0f ), &core );
	double lx, hx, ly, hy;
	soak_core_extent( &core, 1.0, 0.0, &lx, &hx );
	soak_core_extent( &core, 0.0, 1.0, &ly, &hy );
	*smallest = fmin( hx - lx, hy - ly );
	return fmax( hx - lx, hy - ly );
}

// A random def; false when the draw made an unusable shape (a degenerate polygon).
bool soak_random_def( soak_source* src, soak_character* ch )
{
	int kind = soak_int( src, SOAK_KIND_COUNT );
	uint32_t options = 0;
	double size = soak_chance( src, 0.15 ) ? soak_uniform( src, 0.02, 0.1 ) : soak_log_uniform( src, 0.1, 3.0 );
	bool thin = soak_chance( src, 0.12 ) && kind != SOAK_KIND_CIRCLE;
	bool offset = soak_chance( src, 0.12 );
	if ( thin && size * 0.1 < 0.01 )
	{
		size = 0.1 / soak_uniform( src, 0.5, 1.0 ); // no side under 0.01: the tolerance must stay above float noise
	}
	soak_shape_spec spec;
	soak_random_spec( src, kind, size, thin, offset, &spec );
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = soak_make_character_shape( &spec );
	if ( kcc_shape_is_valid( &def.shape ) == false )
	{
		return false;
	}
	double smallest, largest = soak_shape_size( &def.shape, &smallest );
	if ( smallest < 0.005 )
	{
		return false;
	}
	options |= largest < 0.1 ? SOAK_OPT_TINY : 0u;
	options |= thin ? SOAK_OPT_THIN : 0u;
	options |= offset ? SOAK_OPT_OFFSET_SHAPE : 0u;
	if ( soak_chance( src, 0.08 ) )
	{
		def.up = kcc_v2( 0.0f, -1.0f );
		options |= SOAK_OPT_FLIPPED_UP;
	}
	else if ( soak_chance( src, 0.15 ) )
	{
		double a = soak_uniform( src, 0.08, 1.4 ) * ( soak_chance( src, 0.5 ) ? 1.0 : -1.0 );
		def.up = kcc_v2( (float)-sin( a ), (float)cos( a ) );
		options |= SOAK_OPT_TILTED_UP;
	}
	if ( soak_chance( src, 0.12 ) )
	{
		def.mode = KCC_MODE_FLOATING;
		options |= SOAK_OPT_FLOATING;
	}
	if ( soak_chance( src, 0.3 ) )
	{
		def.constant_speed_on_slopes = true;
		options |= SOAK_OPT_CONSTANT_SPEED;
	}
	if ( soak_chance( src, 0.3 ) )
	{
		def.stop_on_slope = false;
		options |= SOAK_OPT_SLIDE_ON_SLOPE;
	}
	if ( soak_chance( src, 0.3 ) )
	{
		def.step_height = (float)( largest * soak_uniform( src, 0.05, 0.6 ) );
		options |= SOAK_OPT_STEPS;
	}
	if ( soak_chance( src, 0.2 ) )
	{
		def.snap_distance = 0.0f;
		options |= SOAK_OPT_NO_SNAP;
	}
	else if ( soak_chance( src, 0.5 ) )
	{
		def.snap_distance = (float)( largest * soak_log_uniform( src, 0.01, 1.0 ) );
	}
	if ( soak_chance( src, 0.2 ) )
	{
		def.corner_correction = (float)( largest * soak_uniform( src, 0.05, 0.5 ) );
		options |= SOAK_OPT_CORNER_CORRECTION;
	}
	if ( def.step_height > 0.0f && soak_chance( src, 0.3 ) )
	{
		def.step_min_width = (float)( largest * soak_uniform( src, 0.0, 1.0 ) );
	}
	def.platform_on_leave = (kcc_platform_leave)soak_int( src, 3 );
	if ( soak_chance( src, 0.2 ) )
	{
		def.slide_on_ceiling = false;
		options |= SOAK_OPT_NO_CEILING_SLIDE;
	}
	if ( soak_chance( src, 0.1 ) )
	{
		def.skin = (float)( largest * soak_uniform( src, 0.1, 0.45 ) );
		options |= SOAK_OPT_BIG_SKIN;
	}
	else
	{
		def.skin = (float)fmax( 2.0e-4, fmin( soak_log_uniform( src, 1.0e-3, 0.05 ), 0.1 * smallest ) );
	}
	if ( soak_chance( src, 0.3 ) )
	{
		def.min_move = soak_chance( src, 0.2 ) ? 0.0f : (float)( largest * soak_log_uniform( src, 1.0e-6, 1.0e-2 ) );
	}
	if ( soak_chance( src, 0.4 ) )
	{
		def.max_slides = 1 + soak_int( src, 16 );
	}
	if ( soak_chance( src, 0.4 ) )
	{
		def.max_floor_angle = (float)( soak_uniform( src, 0.0, 89.0 ) * SOAK_PI / 180.0 );
	}
	if ( soak_chance( src, 0.3 ) )
	{
		def.max_depenetration_iterations = 1 + soak_int( src, 16 );
	}
	if ( soak_chance( src, 0.2 ) )
	{
		def.max_candidates = 16 + soak_int( src, 49 );
		options |= SOAK_OPT_FEW_CANDIDATES;
	}
	if ( soak_chance( src, 0.15 ) )
	{
		def.max_displacement = (float)fmax( largest, soak_log_uniform( src, 1.0, 100.0 ) );
	}
	cpBitmask mask = CP_ALL_CATEGORIES;
	if ( soak_chance( src, 0.5 ) )
	{
		mask &= ~SOAK_CAT_GHOST;
	}
	if ( soak_chance( src, 0.2 ) )
	{
		mask &= ~SOAK_CAT_CHARACTER;
	}
	def.filter = cpShapeFilterNew( CP_NO_GROUP, SOAK_CAT_CHARACTER, mask );
	def.one_way_categories = soak_chance( src, 0.85 ) ? SOAK_CAT_ONE_WAY : 0;
	def.pushable_categories = soak_chance( src, 0.8 ) ? SOAK_CAT_CRATE : 0;
	def.mass = soak_chance( src, 0.5 ) ? (float)soak_log_uniform( src, 0.1, 10.0 ) : 0.0f;
	if ( kcc_controller_def_problem( &def ) != NULL )
	{
		return false;
	}
	ch->def = def;
	ch->spec = spec;
	ch->kind = kind;
	ch->options = options;
	ch->height = soak_character_height( &def.shape, def.up );
	return true;
}

// Whether shape i blocks character ch (sensors never; the filter; its own shape).
bool soak_blocks( const soak_world* w, const soak_character* ch, int self, int i )
{
	const soak_shape* s = &w->shapes[i];
	if ( s->shape == NULL || i == self || ( s->roles & SOAK_ROLE_SENSOR ) || cpShapeGetSensor( s->shape ) )
	{
		return false;
	}
	cpShapeFilter filter = cpShapeFilterNew( CP_NO_GROUP, ch->def.filter.categories, ch->def.filter.mask );
	return soak_filter_blocks( filter, cpShapeGetFilter( s->shape ) );
}

// Whether the character's shape at p is at least margin away from every solid that blocks it (one-way shapes too).
static bool soak_clear_at( const soak_world* w, const soak_character* ch, int self, vec2s p, double margin )
{
	soak_core me;
	soak_core_from_character( &ch->def.shape, p, &me );
	for ( int i = 0; i < w->shape_count; ++i )
	{
		if ( soak_blocks( w, ch, self, i ) == false )
		{
			continue;
		}
		if ( soak_core_contact( &me, &soak_cache_of( w, i )->core ).depth > -margin )
		{
			return false;
		}
	}
	return true;
}

vec2s soak_find_clear_spot( const soak_world* w, soak_source* src, const soak_character* ch, int self )
{
	for ( int attempt = 0; attempt < 60; ++attempt )
	{
		cpVect p = soak_point_in( src, w->half_size );
		vec2s q = kcc_v2( (float)p.x, (float)p.y );
		if ( soak_clear_at( w, ch, self, q, 2.0 * ch->def.skin ) )
		{
			return q;
		}
	}
	return kcc_v2( 0.0f, (float)( w->half_size + 4.0 + 2.0 * ch->height ) ); // above the level
}

bool soak_character_create( soak_world* w, soak_source* src, int index )
{
	soak_character* ch = &w->characters[index];
	memset( ch, 0, sizeof( *ch ) );
	ch->shape_index = -1;
	bool made = false;
	for ( int attempt = 0; attempt < 20 && made == false; ++attempt )
	{
		made = soak_random_def( src, ch );
	}
	if ( made == false )
	{
		return false;
	}
	ch->def.position = soak_find_clear_spot( w, src, ch, -1 );
	ch->c = kcc_controller_create( w->space, &ch->def );
	if ( ch->c == NULL )
	{
		return false;
	}
	ch->shape_index = soak_register( w, kcc_controller_get_shape( ch->c ), soak_kind_of_character( &ch->def.shape ),
									 SOAK_ROLE_CHARACTER, index );
	return true;
}

soak_world* soak_world_create( soak_source* src, const soak_world_config* config )
{
	soak_world* w = soak_world_new( config->half_size );
	if ( soak_chance( src, 0.5 ) )
	{
		cpSpaceUseSpatialHash( w->space, soak_uniform( src, 0.5, 2.0 ), 1000 + soak_int( src, 4000 ) );
		w->spatial_hash = true;
	}
	if ( soak_chance( src, 0.7 ) )
	{
		soak_add_ground( w, src );
	}
	int features = 1 + soak_int( src, config->features );
	for ( int i = 0; i < features && soak_exhausted( src ) == false; ++i )
	{
		soak_add_feature( w, src );
	}
	int platforms = soak_int( src, config->platforms + 1 );
	for ( int i = 0; i < platforms; ++i )
	{
		soak_add_platform( w, src );
	}
	if ( config->crates > 0 )
	{
		soak_add_crates( w, src, soak_int( src, config->crates + 1 ) );
	}
	bool dynamic = false;
	for ( int i = 0; i < w->crate_count; ++i )
	{
		dynamic |= cpBodyGetType( w->crates[i] ) == CP_BODY_TYPE_DYNAMIC;
	}
	w->steps_space = soak_platforms_by_velocity( w ) || dynamic || soak_chance( src, 0.3 );
	int characters = 1 + soak_int( src, config->characters );
	for ( int i = 0; i < characters && i < SOAK_MAX_CHARACTERS; ++i )
	{
		if ( soak_character_create( w, src, w->character_count ) )
		{
			w->character_count += 1;
		}
	}
	return w;
}

// ---------------------------------------------------------------------------------------------------------------
// The check

// Moves a core rigidly with body's motion since it was at pose from (a rider's carry): body-frame points keep their
// place.
static void soak_carry_core( const cpBody* body, const soak_pose* from, soak_core* core )
{
	cpVect now = cpBodyGetPosition( body );
	double turn = cpBodyGetAngle( body ) - from->angle, cs = cos( turn ), sn = sin( turn );
	for ( int v = 0; v < core->count; ++v )
	{
		double rx = core->x[v] - from->x, ry = core->y[v] - from->y;
		core->x[v] = now.x + cs * rx - sn * ry;
		core->y[v] = now.y + sn * rx + cs * ry;
	}
}

soak_path_leg soak_path_last_leg( const kcc_move_result* result, vec2s start, vec2s end, vec2s* leg, bool* carried )
{
	*leg = start;
	*carried = true;
	int n = result->path_count;
	if ( n < 1 || n > KCC_MAX_PATH_POINTS || memcmp( &result->path[0], &start, sizeof( vec2s ) ) != 0 ||
		 memcmp( &result->path[n - 1], &end, sizeof( vec2s ) ) != 0 )
	{
		return SOAK_PATH_BROKEN;
	}
	if ( n == KCC_MAX_PATH_POINTS )
	{
		return SOAK_PATH_TRUNCATED;
	}
	if ( n >= 3 )
	{
		// Points after the first come after the carry: where the platform holds the character now.
		*leg = result->path[n - 2];
		*carried = false;
	}
	return SOAK_PATH_LEG;
}

soak_check soak_check_character( const soak_world* w, int index, const vec2s* start, const kcc_move_result* result,
								 uint32_t flags )
{
	soak_check r = { 0.0, 0.0, -1, false };
	const soak_character* ch = &w->characters[index];
	const kcc_controller_def* def = &ch->def;
	vec2s p = kcc_controller_get_position( ch->c );
	soak_core me;
	soak_core_from_character( &def->shape, p, &me );
	double lo_x, hi_x, lo_y, hi_y;
	soak_core_extent( &me, 1.0, 0.0, &lo_x, &hi_x );
	soak_core_extent( &me, 0.0, 1.0, &lo_y, &hi_y );
	double cos_floor = cos( (double)def->max_floor_angle );
	vec2s leg;
	bool carried;
	bool use_path = start != NULL && result != NULL &&
					soak_path_last_leg( result, *start, p, &leg, &carried ) == SOAK_PATH_LEG;
	double deepest = 0.0;
	for ( int i = 0; i < w->shape_count; ++i )
	{
		if ( soak_blocks( w, ch, ch->shape_index, i ) == false || w->shapes[i].shape == ch->drop_shape )
		{
			continue;
		}
		if ( w->shapes[i].roles & SOAK_ROLE_CHARACTER )
		{
			soak_cache_update( w, i ); // characters move between checks
		}
		const soak_cache* cache = soak_cache_of( w, i );
		if ( cache->hi_x < lo_x || cache->lo_x > hi_x || cache->hi_y < lo_y || cache->lo_y > hi_y )
		{
			continue;
		}
		soak_contact k = soak_core_contact( &me, &cache->core );
		if ( k.depth <= deepest )
		{
			continue;
		}
		if ( cpShapeGetFilter( w->shapes[i].shape ).categories & def->one_way_categories )
		{
			// Passing through a one-way shape is allowed; sinking into it from above is not.
			if ( start == NULL )
			{
				continue;
			}
			bool floor_facing = k.nx * def->up.x + k.ny * def->up.y >= cos_floor - 1.0e-5;
			if ( floor_facing == false || k.depth <= SOAK_TOLERANCE * ch->height )
			{
				continue;
			}
			// Judged at the start of the leg of the move's path that entered the shape: the last point clear of it
			// (within the tolerance) before the end. The character may have left its top, gone round and entered it
			// from the side, then gone on inside it. Points after the first come after the platform's carry.
			soak_core before;
			int from = 0;
			for ( int j = use_path ? result->path_count - 2 : 0; j >= 1 && from == 0; --j )
			{
				soak_core_from_character( &def->shape, result->path[j], &before );
				from = soak_core_contact( &before, &cache->core ).depth <= SOAK_TOLERANCE * ch->height ? j : 0;
			}
			if ( from > 0 )
			{
				if ( soak_one_way_above( &before, &cache->core, def->up, cos_floor, SOAK_TOLERANCE * ch->height ) )
				{
					deepest = k.depth;
					r.shape_index = i;
				}
				continue;
			}
			soak_core_from_character( &def->shape, *start, &before );
			const cpBody* body = cpShapeGetBody( w->shapes[i].shape );
			if ( ch->riding && ch->floor_shape != NULL && cpShapeGetBody( (cpShape*)ch->floor_shape ) == body )
			{
				// A rider is carried with its platform first: whether it was above a one-way shape of that platform
				// is judged where the platform holds it now (else it looks clear of a shape it was passing through,
				// which the platform has just moved away). The carry covers the body's motion since the rider's last
				// move, which is more than the last step when the rider skipped a frame or was restored.
				soak_carry_core( body, &ch->ride, &before );
			}
			// Inside it where the move started counts as above only on the shape it stood on (within two skins), or
			// when its last move ended clear of every one-way shape (the shape came up into it since). Otherwise
			// it was passing through, however shallow the overlap.
			double tolerance = ch->one_way_inside ? 0.0 : INFINITY;
			if ( w->shapes[i].shape == ch->floor_shape )
			{
				tolerance = 2.0 * def->skin;
			}
			if ( soak_one_way_above( &before, &cache->core, def->up, cos_floor, tolerance ) == false )
			{
				continue;
			}
		}
		deepest = k.depth;
		r.shape_index = i;
	}
	r.depth = deepest;
	r.heights = deepest / ch->height;
	r.counted = r.heights > SOAK_TOLERANCE && ( flags & KCC_CRUSHED ) == 0;
	return r;
}

void soak_crate_depths( const soak_world* w, int index, double* out, int* deepest_shape )
{
	const soak_character* ch = &w->characters[index];
	for ( int i = 0; i < w->character_count; ++i )
	{
		if ( w->characters[i].c != NULL && w->characters[i].shape_index >= 0 )
		{
			soak_cache_update( w, w->characters[i].shape_index );
		}
	}
	for ( int k = 0; k < w->crate_count; ++k )
	{
		soak_cache_update( w, w->crate_shapes[k] );
	}
	for ( int k = 0; k < w->crate_count; ++k )
	{
		int self = w->crate_shapes[k];
		const soak_cache* me = soak_cache_of( w, self );
		double deepest = -1.0;
		if ( deepest_shape != NULL )
		{
			deepest_shape[k] = -1;
		}
		for ( int i = 0; i < w->shape_count; ++i )
		{
			// The character itself blocks its crates; soak_blocks leaves out the shape passed as self.
			bool blocks = i == ch->shape_index ? w->shapes[i].shape != NULL : soak_blocks( w, ch, self, i );
			if ( blocks == false || ( cpShapeGetFilter( w->shapes[i].shape ).categories & ch->def.one_way_categories ) )
			{
				continue;
			}
			const soak_cache* other = soak_cache_of( w, i );
			if ( other->hi_x < me->lo_x || other->lo_x > me->hi_x || other->hi_y < me->lo_y || other->lo_y > me->hi_y )
			{
				continue;
			}
			double depth = soak_core_contact( &me->core, &other->core ).depth;
			if ( depth > deepest )
			{
				deepest = depth;
				if ( deepest_shape != NULL )
				{
					deepest_shape[k] = i;
				}
			}
		}
		out[k] = deepest;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The crowd

cpSpace* soak_crowd_create( int count, kcc_controller_def* def )
{
	cpSpace* space = cpSpaceNew();
	soak_source src = soak_source_seeded( 100000 );
	for ( int i = 0; i < count; ++i )
	{
		double r = 0.5 * sqrt( soak_uniform( &src, 0.0, 1.0 ) ), a = soak_uniform( &src, 0.0, 2.0 * SOAK_PI );
		cpShape* circle = cpCircleShapeNew( cpSpaceGetStaticBody( space ), 3.0, cpv( r * cos( a ), r * sin( a ) ) );
		cpSpaceAddShape( space, circle );
	}
	*def = kcc_default_controller_def();
	return space;
}

static void soak_free_shape( cpBody* body, cpShape* shape, void* data )
{
	(void)body;
	cpSpaceRemoveShape( (cpSpace*)data, shape );
	cpShapeFree( shape );
}

typedef struct soak_crowd_probe
{
	soak_core character;
	double deepest;
} soak_crowd_probe;

static void soak_crowd_probe_shape( cpBody* body, cpShape* shape, void* data )
{
	(void)body;
	soak_crowd_probe* probe = data;
	soak_core circle;
	soak_core_from_chipmunk( shape, SOAK_CIRCLE, &circle );
	double depth = soak_core_contact( &probe->character, &circle ).depth;
	probe->deepest = depth > probe->deepest ? depth : probe->deepest;
}

double soak_crowd_overlap( cpSpace* space, const kcc_shape* shape, vec2s position )
{
	soak_crowd_probe probe;
	soak_core_from_character( shape, position, &probe.character );
	probe.deepest = 0.0;
	cpBodyEachShape( cpSpaceGetStaticBody( space ), soak_crowd_probe_shape, &probe );
	return probe.deepest / soak_character_height( shape, kcc_v2( 0.0f, 1.0f ) );
}

void soak_crowd_destroy( cpSpace* space )
{
	cpBodyEachShape( cpSpaceGetStaticBody( space ), soak_free_shape, space );
	cpSpaceFree( space );
}

