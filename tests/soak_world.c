// SPDX-License-Identifier: MIT
// The soak's oracle, random worlds, actions and reproductions (see soak_world.h).
#include "soak_world.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SOAK_PI 3.14159265358979323846

// ---------------------------------------------------------------------------------------------------------------
// The oracle: double precision, no library geometry

static double soak_cross( double ax, double ay, double bx, double by )
{
	return ax * by - ay * bx;
}

void soak_core_hull( soak_core* core )
{
	int n = core->count;
	double px[SOAK_MAX_CORE], py[SOAK_MAX_CORE];
	for ( int i = 0; i < n; ++i )
	{
		// insertion sort by x, then y
		int j = i;
		while ( j > 0 && ( px[j - 1] > core->x[i] || ( px[j - 1] == core->x[i] && py[j - 1] > core->y[i] ) ) )
		{
			px[j] = px[j - 1];
			py[j] = py[j - 1];
			--j;
		}
		px[j] = core->x[i];
		py[j] = core->y[i];
	}
	int unique = 0;
	for ( int i = 0; i < n; ++i )
	{
		if ( unique == 0 || px[i] != px[unique - 1] || py[i] != py[unique - 1] )
		{
			px[unique] = px[i];
			py[unique] = py[i];
			unique += 1;
		}
	}
	if ( unique <= 1 )
	{
		core->count = unique;
		if ( unique == 1 )
		{
			core->x[0] = px[0];
			core->y[0] = py[0];
		}
		return;
	}
	// Andrew's monotone chain; collinear points are dropped (cross <= 0 pops).
	double hx[2 * SOAK_MAX_CORE + 1], hy[2 * SOAK_MAX_CORE + 1];
	int k = 0;
	for ( int i = 0; i < unique; ++i )
	{
		while ( k >= 2 && soak_cross( hx[k - 1] - hx[k - 2], hy[k - 1] - hy[k - 2], px[i] - hx[k - 2], py[i] - hy[k - 2] ) <= 0.0 )
		{
			--k;
		}
		hx[k] = px[i];
		hy[k] = py[i];
		++k;
	}
	for ( int i = unique - 2, lower = k + 1; i >= 0; --i )
	{
		while ( k >= lower &&
				soak_cross( hx[k - 1] - hx[k - 2], hy[k - 1] - hy[k - 2], px[i] - hx[k - 2], py[i] - hy[k - 2] ) <= 0.0 )
		{
			--k;
		}
		hx[k] = px[i];
		hy[k] = py[i];
		++k;
	}
	k -= 1; // the last point is the first one again
	if ( k < 2 )
	{
		k = 2; // every point collinear: the two extremes
		hx[1] = px[unique - 1];
		hy[1] = py[unique - 1];
	}
	for ( int i = 0; i < k; ++i )
	{
		core->x[i] = hx[i];
		core->y[i] = hy[i];
	}
	core->count = k;
}

// Closest point of segment ab to p; returns the distance.
static double soak_point_segment( double px, double py, double ax, double ay, double bx, double by, double* qx,
								  double* qy )
{
	double dx = bx - ax, dy = by - ay;
	double len2 = dx * dx + dy * dy;
	double t = 0.0;
	if ( len2 > 0.0 )
	{
		t = ( ( px - ax ) * dx + ( py - ay ) * dy ) / len2;
		t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
	}
	*qx = ax + t * dx;
	*qy = ay + t * dy;
	return hypot( px - *qx, py - *qy );
}

// Distance of segments s (s[0..3] = ax, ay, bx, by) and t, with the closest points (pa on s, pb on t).
static double soak_segment_segment( const double* s, const double* t, double* pa, double* pb )
{
	double d1 = soak_cross( s[2] - s[0], s[3] - s[1], t[0] - s[0], t[1] - s[1] );
	double d2 = soak_cross( s[2] - s[0], s[3] - s[1], t[2] - s[0], t[3] - s[1] );
	double d3 = soak_cross( t[2] - t[0], t[3] - t[1], s[0] - t[0], s[1] - t[1] );
	double d4 = soak_cross( t[2] - t[0], t[3] - t[1], s[2] - t[0], s[3] - t[1] );
	if ( ( ( d1 > 0.0 && d2 < 0.0 ) || ( d1 < 0.0 && d2 > 0.0 ) ) && ( ( d3 > 0.0 && d4 < 0.0 ) || ( d3 < 0.0 && d4 > 0.0 ) ) )
	{
		double u = d1 / ( d1 - d2 );
		pa[0] = pb[0] = t[0] + u * ( t[2] - t[0] );
		pa[1] = pb[1] = t[1] + u * ( t[3] - t[1] );
		return 0.0;
	}
	double qx, qy, best;
	best = soak_point_segment( s[0], s[1], t[0], t[1], t[2], t[3], &qx, &qy );
	pa[0] = s[0], pa[1] = s[1], pb[0] = qx, pb[1] = qy;
	double d = soak_point_segment( s[2], s[3], t[0], t[1], t[2], t[3], &qx, &qy );
	if ( d < best )
	{
		best = d;
		pa[0] = s[2], pa[1] = s[3], pb[0] = qx, pb[1] = qy;
	}
	d = soak_point_segment( t[0], t[1], s[0], s[1], s[2], s[3], &qx, &qy );
	if ( d < best )
	{
		best = d;
		pb[0] = t[0], pb[1] = t[1], pa[0] = qx, pa[1] = qy;
	}
	d = soak_point_segment( t[2], t[3], s[0], s[1], s[2], s[3], &qx, &qy );
	if ( d < best )
	{
		best = d;
		pb[0] = t[2], pb[1] = t[3], pa[0] = qx, pa[1] = qy;
	}
	return best;
}

// Closed point-in-polygon test for a counter-clockwise hull of at least 3 points.
static bool soak_polygon_contains( const soak_core* c, double px, double py )
{
	for ( int i = 0; i < c->count; ++i )
	{
		int j = i + 1 < c->count ? i + 1 : 0;
		if ( soak_cross( c->x[j] - c->x[i], c->y[j] - c->y[i], px - c->x[i], py - c->y[i] ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Edge e of a core: a point is one zero-length edge, a segment one edge, a polygon count edges.
static int soak_edge_count( const soak_core* c )
{
	return c->count >= 3 ? c->count : 1;
}

static void soak_edge( const soak_core* c, int e, double* out )
{
	int j = c->count >= 3 ? ( e + 1 < c->count ? e + 1 : 0 ) : c->count - 1;
	out[0] = c->x[e];
	out[1] = c->y[e];
	out[2] = c->x[j];
	out[3] = c->y[j];
}

static void soak_support_range( const soak_core* c, double nx, double ny, double* lo, double* hi )
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for ( int i = 0; i < c->count; ++i )
	{
		double d = c->x[i] * nx + c->y[i] * ny;
		*lo = d < *lo ? d : *lo;
		*hi = d > *hi ? d : *hi;
	}
}

soak_contact soak_core_contact( const soak_core* a, const soak_core* b )
{
	soak_contact k = { 0.0, 0.0, 1.0 };
	bool touching = false;
	for ( int i = 0; a->count >= 3 && i < b->count && touching == false; ++i )
	{
		touching = soak_polygon_contains( a, b->x[i], b->y[i] );
	}
	for ( int i = 0; b->count >= 3 && i < a->count && touching == false; ++i )
	{
		touching = soak_polygon_contains( b, a->x[i], a->y[i] );
	}
	double distance = INFINITY, pa[2] = { 0.0, 0.0 }, pb[2] = { 0.0, 0.0 };
	for ( int i = 0; touching == false && i < soak_edge_count( a ); ++i )
	{
		double s[4];
		soak_edge( a, i, s );
		for ( int j = 0; j < soak_edge_count( b ); ++j )
		{
			double t[4], qa[2], qb[2];
			soak_edge( b, j, t );
			double d = soak_segment_segment( s, t, qa, qb );
			if ( d < distance )
			{
				distance = d;
				pa[0] = qa[0], pa[1] = qa[1], pb[0] = qb[0], pb[1] = qb[1];
			}
		}
	}
	if ( touching == false && distance > 0.0 )
	{
		k.depth = a->radius + b->radius - distance;
		k.nx = ( pa[0] - pb[0] ) / distance;
		k.ny = ( pa[1] - pb[1] ) / distance;
		return k;
	}
	// The cores meet: the shortest way out is along a facet normal of their Minkowski difference, which is an edge
	// normal of a or of b. Both signs of every edge normal are tried (any direction bounds the depth from above).
	double best = INFINITY;
	for ( int pass = 0; pass < 2; ++pass )
	{
		const soak_core* c = pass == 0 ? a : b;
		for ( int e = 0; c->count >= 2 && e < soak_edge_count( c ); ++e )
		{
			double s[4];
			soak_edge( c, e, s );
			double ex = s[2] - s[0], ey = s[3] - s[1];
			double len = hypot( ex, ey );
			if ( len <= 0.0 )
			{
				continue;
			}
			for ( int sign = -1; sign <= 1; sign += 2 )
			{
				double nx = sign * ey / len, ny = -sign * ex / len;
				double alo, ahi, blo, bhi;
				soak_support_range( a, nx, ny, &alo, &ahi );
				soak_support_range( b, nx, ny, &blo, &bhi );
				double overlap = bhi - alo; // how far a must move along n to leave b
				if ( overlap < best )
				{
					best = overlap;
					k.nx = nx;
					k.ny = ny;
				}
			}
		}
	}
	double penetration = best == INFINITY || best < 0.0 ? 0.0 : best;
	k.depth = a->radius + b->radius + penetration;
	return k;
}

void soak_core_extent( const soak_core* core, double ux, double uy, double* lo, double* hi )
{
	soak_support_range( core, ux, uy, lo, hi );
	*lo -= core->radius;
	*hi += core->radius;
}

void soak_core_from_chipmunk( const cpShape* shape, soak_shape_kind kind, soak_core* out )
{
	const cpBody* body = cpShapeGetBody( shape );
	out->count = 0;
	switch ( kind )
	{
		case SOAK_CIRCLE:
		{
			cpVect c = cpBodyLocalToWorld( body, cpCircleShapeGetOffset( shape ) );
			out->x[0] = c.x, out->y[0] = c.y, out->count = 1;
			out->radius = cpCircleShapeGetRadius( shape );
			break;
		}
		case SOAK_SEGMENT:
		{
			cpVect a = cpBodyLocalToWorld( body, cpSegmentShapeGetA( shape ) );
			cpVect b = cpBodyLocalToWorld( body, cpSegmentShapeGetB( shape ) );
			out->x[0] = a.x, out->y[0] = a.y, out->x[1] = b.x, out->y[1] = b.y, out->count = 2;
			out->radius = cpSegmentShapeGetRadius( shape );
			break;
		}
		default:
		{
			int n = cpPolyShapeGetCount( shape );
			if ( n > SOAK_MAX_CORE )
			{
				abort(); // the worlds never build such polygons
			}
			for ( int i = 0; i < n; ++i )
			{
				cpVect v = cpBodyLocalToWorld( body, cpPolyShapeGetVert( shape, i ) );
				out->x[i] = v.x, out->y[i] = v.y;
			}
			out->count = n;
			out->radius = cpPolyShapeGetRadius( shape );
			break;
		}
	}
	soak_core_hull( out );
}

void soak_core_from_character( const kcc_shape* s, vec2s position, soak_core* out )
{
	double px = position.x, py = position.y;
	out->count = 0;
	out->radius = 0.0;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			out->x[0] = px + s->circle.center.x, out->y[0] = py + s->circle.center.y, out->count = 1;
			out->radius = s->circle.radius;
			break;
		case KCC_SHAPE_CAPSULE:
			out->x[0] = px + s->capsule.a.x, out->y[0] = py + s->capsule.a.y;
			out->x[1] = px + s->capsule.b.x, out->y[1] = py + s->capsule.b.y, out->count = 2;
			out->radius = s->capsule.radius;
			break;
		case KCC_SHAPE_AABB:
			out->x[0] = px + s->aabb.min.x, out->y[0] = py + s->aabb.min.y;
			out->x[1] = px + s->aabb.max.x, out->y[1] = py + s->aabb.min.y;
			out->x[2] = px + s->aabb.max.x, out->y[2] = py + s->aabb.max.y;
			out->x[3] = px + s->aabb.min.x, out->y[3] = py + s->aabb.max.y, out->count = 4;
			break;
		case KCC_SHAPE_OBB:
		{
			double c = cos( (double)s->obb.angle ), sn = sin( (double)s->obb.angle );
			double hx = s->obb.half_extents.x, hy = s->obb.half_extents.y;
			static const double sx[4] = { -1.0, 1.0, 1.0, -1.0 }, sy[4] = { -1.0, -1.0, 1.0, 1.0 };
			for ( int i = 0; i < 4; ++i )
			{
				out->x[i] = px + s->obb.center.x + c * sx[i] * hx - sn * sy[i] * hy;
				out->y[i] = py + s->obb.center.y + sn * sx[i] * hx + c * sy[i] * hy;
			}
			out->count = 4;
			break;
		}
		case KCC_SHAPE_POLYGON:
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				out->x[i] = px + s->polygon.vertices[i].x, out->y[i] = py + s->polygon.vertices[i].y;
			}
			out->count = s->polygon.count;
			out->radius = s->polygon.radius;
			break;
		default:
			abort(); // characters are never anything else
	}
	soak_core_hull( out );
}

soak_shape_kind soak_kind_of_character( const kcc_shape* shape )
{
	return shape->type == KCC_SHAPE_CIRCLE ? SOAK_CIRCLE : shape->type == KCC_SHAPE_CAPSULE ? SOAK_SEGMENT : SOAK_POLY;
}

double soak_character_height( const kcc_shape* shape, vec2s up )
{
	soak_core core;
	soak_core_from_character( shape, kcc_v2( 0.0f, 0.0f ), &core );
	double lo, hi;
	soak_core_extent( &core, up.x, up.y, &lo, &hi );
	return hi - lo;
}

bool soak_filter_blocks( cpShapeFilter a, cpShapeFilter b )
{
	bool reject = ( a.group != CP_NO_GROUP && a.group == b.group ) || ( a.categories & b.mask ) == 0 ||
				  ( b.categories & a.mask ) == 0;
	return reject == false;
}

bool soak_one_way_above( const soak_core* character, const soak_core* shape, vec2s up, double cos_floor,
						 double tolerance )
{
	double lo, hi, shape_lo, shape_hi;
	soak_core_extent( character, up.x, up.y, &lo, &hi );
	soak_core_extent( shape, up.x, up.y, &shape_lo, &shape_hi );
	double reach = hi - shape_lo; // past this the character is entirely below the shape
	double scale = hi - lo;
	soak_core moving = *character;
	double t = 0.0;
	// Conservative advancement straight down: the gap is a safe step along any direction.
	for ( int i = 0; i < 20000; ++i )
	{
		soak_contact k = soak_core_contact( &moving, shape );
		if ( k.depth > -1.0e-7 * scale )
		{
			if ( t == 0.0 && k.depth > tolerance )
			{
				return false; // already inside it
			}
			return k.nx * up.x + k.ny * up.y >= cos_floor - 1.0e-5;
		}
		t += -k.depth;
		if ( t > reach )
		{
			return false;
		}
		for ( int v = 0; v < moving.count; ++v )
		{
			moving.x[v] = character->x[v] - t * up.x;
			moving.y[v] = character->y[v] - t * up.y;
		}
	}
	return false;
}

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
// Names

const char* soak_kind_name( int kind )
{
	static const char* names[SOAK_KIND_COUNT] = { "circle", "capsule", "box", "rounded box", "polygon",
												  "rounded polygon" };
	return kind >= 0 && kind < SOAK_KIND_COUNT ? names[kind] : "?";
}

const char* soak_option_name( int bit )
{
	static const char* names[SOAK_OPT_COUNT] = { "constant speed", "slide on slope", "steps", "no snap", "floating",
												 "tilted up", "flipped up", "no ceiling slide", "few candidates",
												 "tiny", "thin", "big skin", "offset shape",
												 "corner correction" };
	return bit >= 0 && bit < SOAK_OPT_COUNT ? names[bit] : "?";
}

const char* soak_failure_name( int klass )
{
	static const char* names[SOAK_FAIL_COUNT] = { "candidates truncated", "riding a platform",
												  "pushed out, into a one-way shape", "pushed out, into a solid",
												  "sank into a one-way shape", "constant speed: moved farther than asked",
												  "moved against the input", "other" };
	return klass >= 0 && klass < SOAK_FAIL_COUNT ? names[klass] : "?";
}

const char* soak_action_name( int action )
{
	static const char* names[SOAK_ACT_COUNT] = { "walk", "long", "huge", "reverse", "aimed", "gravity", "drop",
												 "teleport", "inside", "restore", "set shape", "set up",
												 "bad input", "odd def", "odd state", "destroy" };
	return action >= 0 && action < SOAK_ACT_COUNT ? names[action] : "?";
}

// ---------------------------------------------------------------------------------------------------------------
// Assert hook: kcc_make_polygon of random points may assert in Debug (a degenerate hull); a move must never.

static int s_assert_count = 0;

static int soak_assert_hook( const char* message, const char* file, int line )
{
	(void)message;
	(void)file;
	(void)line;
	s_assert_count += 1;
	return 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Worlds

// Cached cores of the world's shapes (static ones never move; platforms are refreshed after they move, characters
// are read at each check). Kept beside the world so the public struct stays plain.
typedef struct soak_cache
{
	soak_core core;
	double lo_x, lo_y, hi_x, hi_y;
	bool valid;
} soak_cache;

typedef struct soak_world_private
{
	soak_world world;
	soak_cache cache[SOAK_MAX_SHAPES];
} soak_world_private;

static soak_cache* soak_cache_of( const soak_world* w, int i )
{
	return &( (soak_world_private*)w )->cache[i];
}

static void soak_cache_update( const soak_world* w, int i )
{
	soak_cache* c = soak_cache_of( w, i );
	soak_core_from_chipmunk( w->shapes[i].shape, w->shapes[i].kind, &c->core );
	soak_core_extent( &c->core, 1.0, 0.0, &c->lo_x, &c->hi_x );
	soak_core_extent( &c->core, 0.0, 1.0, &c->lo_y, &c->hi_y );
	c->valid = true;
}

static soak_world* soak_world_new( double half_size )
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

static int soak_register( soak_world* w, cpShape* s, soak_shape_kind kind, uint32_t roles, int owner )
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
	cpSpaceFree( w->space );
	free( (soak_world_private*)w );
}

static cpBody* soak_static( soak_world* w )
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
		if ( w->shapes[i].roles & SOAK_ROLE_PLATFORM )
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
static void soak_random_spec( soak_source* src, int kind, double size, bool thin, bool offset, soak_shape_spec* s )
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

static double soak_shape_size( const kcc_shape* shape, double* smallest )
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
static bool soak_random_def( soak_source* src, soak_character* ch )
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
static bool soak_blocks( const soak_world* w, const soak_character* ch, int self, int i )
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

static vec2s soak_find_clear_spot( const soak_world* w, soak_source* src, const soak_character* ch, int self )
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

static bool soak_character_create( soak_world* w, soak_source* src, int index )
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
	w->steps_space = soak_platforms_by_velocity( w ) || soak_chance( src, 0.3 );
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

soak_check soak_check_character( const soak_world* w, int index, const vec2s* start, uint32_t flags )
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
			soak_core before;
			soak_core_from_character( &def->shape, *start, &before );
			if ( soak_one_way_above( &before, &cache->core, def->up, cos_floor, 2.0 * def->skin ) == false )
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

// ---------------------------------------------------------------------------------------------------------------
// Reproductions

soak_case* soak_case_new( void )
{
	soak_case* k = calloc( 1, sizeof( soak_case ) );
	if ( k == NULL )
	{
		abort();
	}
	k->def = kcc_default_controller_def();
	k->spec.maker = 1;
	k->spec.p[1] = -0.3f, k->spec.p[3] = 0.3f, k->spec.radius = 0.3f; // the default capsule
	k->floor_normal = k->def.up;
	k->dt = 1.0f / 60.0f;
	k->note = "";
	return k;
}

void soak_case_add( soak_case* k, soak_shape_kind kind, double radius, int count, const double* xy,
					cpBitmask categories, cpBitmask mask )
{
	if ( k->shape_count >= SOAK_CASE_MAX_SHAPES || count > SOAK_CASE_MAX_VERTICES || count < 1 )
	{
		abort(); // a broken reproduction
	}
	soak_case_shape* s = &k->shapes[k->shape_count++];
	memset( s, 0, sizeof( *s ) );
	s->kind = kind;
	s->radius = radius;
	s->count = count;
	for ( int i = 0; i < count; ++i )
	{
		s->v[i][0] = xy[2 * i];
		s->v[i][1] = xy[2 * i + 1];
	}
	s->categories = categories;
	s->mask = mask;
}

void soak_case_capture( const soak_world* w, int index, const kcc_controller_state* before, soak_case_call call,
						vec2s delta, float dt, soak_case* out )
{
	const soak_character* ch = &w->characters[index];
	out->shape_count = 0;
	out->spec = ch->spec;
	out->def = ch->def;
	out->position = before->position;
	out->flags = before->flags;
	out->floor_normal = before->floor_normal;
	out->support_count = before->support_count;
	for ( int i = 0; i < before->support_count && i < 4; ++i )
	{
		out->supports[i] = before->supports[i];
	}
	out->call = call;
	out->delta = delta;
	out->dt = dt;
	out->note = ch->riding ? "the move started on a kinematic body: its carry is not part of the reproduction"
				: ch->drop_shape != NULL ? "dropping through a one-way shape: not part of the reproduction"
										 : "";
	out->expected_position = kcc_controller_get_position( ch->c );
	// Every shape the move can reach: its length, the shape, the snap, the step, with room to spare.
	double reach = hypot( delta.x, delta.y ) * ( call == SOAK_CALL_MOVE_AND_SLIDE ? dt : 1.0f );
	double smallest, largest = soak_shape_size( &ch->def.shape, &smallest );
	reach += 2.0 * largest + ch->def.snap_distance + ch->def.step_height + 1.0;
	soak_core me;
	soak_core_from_character( &ch->def.shape, before->position, &me );
	double lo_x, hi_x, lo_y, hi_y;
	soak_core_extent( &me, 1.0, 0.0, &lo_x, &hi_x );
	soak_core_extent( &me, 0.0, 1.0, &lo_y, &hi_y );
	for ( int i = 0; i < w->shape_count && out->shape_count < SOAK_CASE_MAX_SHAPES; ++i )
	{
		const soak_shape* s = &w->shapes[i];
		if ( soak_blocks( w, ch, ch->shape_index, i ) == false )
		{
			continue;
		}
		const soak_cache* cache = soak_cache_of( w, i );
		if ( cache->hi_x < lo_x - reach || cache->lo_x > hi_x + reach || cache->hi_y < lo_y - reach ||
			 cache->lo_y > hi_y + reach )
		{
			continue;
		}
		// Chipmunk's own vertex order, in world coordinates: a raw polygon of these is the same shape.
		const cpBody* body = cpShapeGetBody( s->shape );
		double xy[2 * SOAK_CASE_MAX_VERTICES];
		int n = 0;
		double radius = 0.0;
		if ( s->kind == SOAK_CIRCLE )
		{
			cpVect c = cpBodyLocalToWorld( body, cpCircleShapeGetOffset( s->shape ) );
			xy[0] = c.x, xy[1] = c.y, n = 1;
			radius = cpCircleShapeGetRadius( s->shape );
		}
		else if ( s->kind == SOAK_SEGMENT )
		{
			cpVect a = cpBodyLocalToWorld( body, cpSegmentShapeGetA( s->shape ) );
			cpVect b = cpBodyLocalToWorld( body, cpSegmentShapeGetB( s->shape ) );
			xy[0] = a.x, xy[1] = a.y, xy[2] = b.x, xy[3] = b.y, n = 2;
			radius = cpSegmentShapeGetRadius( s->shape );
		}
		else
		{
			n = cpPolyShapeGetCount( s->shape );
			if ( n > SOAK_CASE_MAX_VERTICES )
			{
				continue;
			}
			for ( int v = 0; v < n; ++v )
			{
				cpVect p = cpBodyLocalToWorld( body, cpPolyShapeGetVert( s->shape, v ) );
				xy[2 * v] = p.x, xy[2 * v + 1] = p.y;
			}
			radius = cpPolyShapeGetRadius( s->shape );
		}
		cpShapeFilter f = cpShapeGetFilter( s->shape );
		soak_case_add( out, s->kind, radius, n, xy, f.categories, f.mask );
	}
}

soak_case_outcome soak_case_run( const soak_case* k )
{
	soak_case_outcome o;
	memset( &o, 0, sizeof( o ) );
	o.shape_index = -1;
	soak_world* w = soak_world_new( 100.0 );
	cpBody* body = soak_static( w );
	for ( int i = 0; i < k->shape_count; ++i )
	{
		const soak_case_shape* s = &k->shapes[i];
		cpShape* shape;
		if ( s->kind == SOAK_CIRCLE )
		{
			shape = cpCircleShapeNew( body, s->radius, cpv( s->v[0][0], s->v[0][1] ) );
		}
		else if ( s->kind == SOAK_SEGMENT )
		{
			shape = cpSegmentShapeNew( body, cpv( s->v[0][0], s->v[0][1] ), cpv( s->v[1][0], s->v[1][1] ), s->radius );
		}
		else
		{
			cpVect v[SOAK_CASE_MAX_VERTICES];
			for ( int j = 0; j < s->count; ++j )
			{
				v[j] = cpv( s->v[j][0], s->v[j][1] );
			}
			shape = cpPolyShapeNewRaw( body, s->count, v, s->radius );
		}
		cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, s->categories, s->mask ) );
		cpSpaceAddShape( w->space, shape );
		soak_register( w, shape, s->kind, 0, -1 );
	}
	soak_character* ch = &w->characters[0];
	memset( ch, 0, sizeof( *ch ) );
	ch->shape_index = -1;
	ch->spec = k->spec;
	ch->def = k->def;
	ch->def.shape = soak_make_character_shape( &k->spec );
	ch->def.position = k->position;
	ch->height = soak_character_height( &ch->def.shape, ch->def.up );
	ch->c = kcc_controller_create( w->space, &ch->def );
	if ( ch->c == NULL )
	{
		o.status = KCC_ERROR_INVALID_ARGUMENT;
		soak_world_destroy( w );
		return o;
	}
	w->character_count = 1;
	ch->shape_index = soak_register( w, kcc_controller_get_shape( ch->c ), soak_kind_of_character( &ch->def.shape ),
									 SOAK_ROLE_CHARACTER, 0 );
	kcc_controller_state state = kcc_controller_get_state( ch->c );
	state.position = k->position;
	state.flags = k->flags;
	state.floor_normal = k->floor_normal;
	state.support_count = k->support_count;
	for ( int i = 0; i < k->support_count && i < 4; ++i )
	{
		state.supports[i] = k->supports[i];
	}
	kcc_controller_set_state( ch->c, &state );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	if ( k->call == SOAK_CALL_MOVE )
	{
		o.status = kcc_controller_move( ch->c, k->delta, &o.result );
	}
	else
	{
		o.status = kcc_controller_move_and_slide( ch->c, k->delta, k->dt, &velocity, &o.result );
	}
	soak_check check = soak_check_character( w, 0, &k->position, o.result.flags );
	o.heights = check.heights;
	o.shape_index = check.shape_index;
	bool finite = kcc_is_valid_vec2( o.result.position ) && kcc_is_valid_vec2( velocity ) &&
				  kcc_is_valid_vec2( kcc_controller_get_position( ch->c ) );
	o.fails = check.counted || finite == false;
	soak_world_destroy( w );
	return o;
}

// Drops every shape the failure does not need, last to first.
static void soak_case_drop_shapes( soak_case* k )
{
	for ( int i = k->shape_count - 1; i >= 0; --i )
	{
		soak_case_shape removed = k->shapes[i];
		memmove( &k->shapes[i], &k->shapes[i + 1], sizeof( soak_case_shape ) * (size_t)( k->shape_count - 1 - i ) );
		k->shape_count -= 1;
		if ( soak_case_run( k ).fails == false )
		{
			memmove( &k->shapes[i + 1], &k->shapes[i], sizeof( soak_case_shape ) * (size_t)( k->shape_count - i ) );
			k->shapes[i] = removed;
			k->shape_count += 1;
		}
	}
}

bool soak_case_shrink( soak_case* k )
{
	if ( soak_case_run( k ).fails == false )
	{
		return false;
	}
	soak_case_drop_shapes( k );
	// A failure that needs the candidate buffer to overflow needs fewer shapes with the smallest buffer.
	if ( k->def.max_candidates > 16 )
	{
		int saved = k->def.max_candidates;
		k->def.max_candidates = 16;
		if ( soak_case_run( k ).fails )
		{
			soak_case_drop_shapes( k );
		}
		else
		{
			k->def.max_candidates = saved;
		}
	}
	// Def fields back to their defaults, one at a time, while the case still fails.
	const kcc_controller_def d = kcc_default_controller_def();
#define SOAK_TRY_DEFAULT( field )                                                                                   \
	do                                                                                                             \
	{                                                                                                              \
		kcc_controller_def saved = k->def;                                                                         \
		k->def.field = d.field;                                                                                    \
		if ( memcmp( &saved, &k->def, sizeof( saved ) ) != 0 && soak_case_run( k ).fails == false )               \
		{                                                                                                          \
			k->def = saved;                                                                                        \
		}                                                                                                          \
	}                                                                                                              \
	while ( 0 )
	SOAK_TRY_DEFAULT( min_move );
	SOAK_TRY_DEFAULT( max_slides );
	SOAK_TRY_DEFAULT( max_floor_angle );
	SOAK_TRY_DEFAULT( snap_distance );
	SOAK_TRY_DEFAULT( step_height );
	SOAK_TRY_DEFAULT( stop_on_slope );
	SOAK_TRY_DEFAULT( constant_speed_on_slopes );
	SOAK_TRY_DEFAULT( slide_on_ceiling );
	SOAK_TRY_DEFAULT( mode );
	SOAK_TRY_DEFAULT( filter );
	SOAK_TRY_DEFAULT( one_way_categories );
	SOAK_TRY_DEFAULT( max_displacement );
	SOAK_TRY_DEFAULT( max_depenetration_iterations );
	SOAK_TRY_DEFAULT( max_candidates );
	SOAK_TRY_DEFAULT( platform_on_leave );
	SOAK_TRY_DEFAULT( corner_correction );
	SOAK_TRY_DEFAULT( step_min_width );
	SOAK_TRY_DEFAULT( skin );
#undef SOAK_TRY_DEFAULT
	return true;
}

static void soak_print_float( FILE* f, float x )
{
	fprintf( f, "%af", (double)x );
}

static void soak_print_vec2( FILE* f, vec2s v )
{
	fprintf( f, "kcc_v2( " );
	soak_print_float( f, v.x );
	fprintf( f, ", " );
	soak_print_float( f, v.y );
	fprintf( f, " )" );
}

void soak_case_print( FILE* f, const soak_case* k )
{
	static const char* kinds[3] = { "SOAK_CIRCLE", "SOAK_SEGMENT", "SOAK_POLY" };
	fprintf( f, "\tsoak_case* k = soak_case_new();\n" );
	for ( int i = 0; i < k->shape_count; ++i )
	{
		const soak_case_shape* s = &k->shapes[i];
		fprintf( f, "\tsoak_case_add( k, %s, %a, %d,\n\t\t\t\t   (const double[]){", kinds[s->kind], s->radius, s->count );
		for ( int v = 0; v < s->count; ++v )
		{
			// two points a line
			fprintf( f, "%s%a, %a", v == 0 ? " " : v % 2 == 0 ? ",\n\t\t\t\t\t\t\t\t\t " : ", ", s->v[v][0], s->v[v][1] );
		}
		fprintf( f, " },\n\t\t\t\t   0x%llxu, 0x%llxu );\n", (unsigned long long)s->categories, (unsigned long long)s->mask );
	}
	const soak_shape_spec* sp = &k->spec;
	fprintf( f, "\tk->spec.maker = %d; // %s\n", sp->maker,
			 (const char*[]){ "circle", "capsule", "box", "aabb", "obb", "polygon" }[sp->maker < 0 || sp->maker > 5 ? 5 : sp->maker] );
	if ( sp->maker == 5 )
	{
		fprintf( f, "\tk->spec.count = %d;\n", sp->count );
		for ( int i = 0; i < sp->count; ++i )
		{
			fprintf( f, "\tk->spec.points[%d] = ", i );
			soak_print_vec2( f, sp->points[i] );
			fprintf( f, ";\n" );
		}
	}
	else
	{
		for ( int i = 0; i < 4; ++i )
		{
			fprintf( f, "\tk->spec.p[%d] = ", i );
			soak_print_float( f, sp->p[i] );
			fprintf( f, ";\n" );
		}
	}
	fprintf( f, "\tk->spec.radius = " );
	soak_print_float( f, sp->radius );
	fprintf( f, ";\n\tk->spec.angle = " );
	soak_print_float( f, sp->angle );
	fprintf( f, ";\n" );
	const kcc_controller_def d = kcc_default_controller_def();
	const kcc_controller_def* def = &k->def;
#define SOAK_PRINT_FLOAT_FIELD( field )                                                                             \
	if ( def->field != d.field )                                                                                   \
	{                                                                                                              \
		fprintf( f, "\tk->def." #field " = " );                                                                    \
		soak_print_float( f, def->field );                                                                         \
		fprintf( f, ";\n" );                                                                                       \
	}
#define SOAK_PRINT_INT_FIELD( field )                                                                               \
	if ( def->field != d.field )                                                                                   \
	{                                                                                                              \
		fprintf( f, "\tk->def." #field " = %d;\n", (int)def->field );                                            \
	}
	if ( def->up.x != d.up.x || def->up.y != d.up.y )
	{
		fprintf( f, "\tk->def.up = " );
		soak_print_vec2( f, def->up );
		fprintf( f, ";\n" );
	}
	SOAK_PRINT_FLOAT_FIELD( skin )
	SOAK_PRINT_FLOAT_FIELD( min_move )
	SOAK_PRINT_INT_FIELD( max_slides )
	SOAK_PRINT_FLOAT_FIELD( max_floor_angle )
	SOAK_PRINT_FLOAT_FIELD( snap_distance )
	SOAK_PRINT_FLOAT_FIELD( step_height )
	SOAK_PRINT_INT_FIELD( stop_on_slope )
	SOAK_PRINT_INT_FIELD( constant_speed_on_slopes )
	SOAK_PRINT_INT_FIELD( slide_on_ceiling )
	SOAK_PRINT_INT_FIELD( mode )
	SOAK_PRINT_FLOAT_FIELD( max_displacement )
	SOAK_PRINT_FLOAT_FIELD( max_coordinate )
	SOAK_PRINT_INT_FIELD( max_depenetration_iterations )
	SOAK_PRINT_INT_FIELD( max_candidates )
	SOAK_PRINT_INT_FIELD( platform_on_leave )
	SOAK_PRINT_FLOAT_FIELD( corner_correction )
	SOAK_PRINT_FLOAT_FIELD( step_min_width )
#undef SOAK_PRINT_FLOAT_FIELD
#undef SOAK_PRINT_INT_FIELD
	if ( def->filter.categories != d.filter.categories || def->filter.mask != d.filter.mask )
	{
		fprintf( f, "\tk->def.filter = cpShapeFilterNew( CP_NO_GROUP, 0x%llxu, 0x%llxu );\n",
				 (unsigned long long)def->filter.categories, (unsigned long long)def->filter.mask );
	}
	if ( def->one_way_categories != d.one_way_categories )
	{
		fprintf( f, "\tk->def.one_way_categories = 0x%llxu;\n", (unsigned long long)def->one_way_categories );
	}
	fprintf( f, "\tk->position = " );
	soak_print_vec2( f, k->position );
	fprintf( f, ";\n\tk->flags = 0x%xu;\n\tk->floor_normal = ", (unsigned)k->flags );
	soak_print_vec2( f, k->floor_normal );
	fprintf( f, ";\n" );
	if ( k->support_count > 0 )
	{
		fprintf( f, "\tk->support_count = %d;\n", k->support_count );
		for ( int i = 0; i < k->support_count && i < 4; ++i )
		{
			fprintf( f, "\tk->supports[%d] = ", i );
			soak_print_vec2( f, k->supports[i] );
			fprintf( f, ";\n" );
		}
	}
	fprintf( f, "\tk->call = %s;\n\tk->delta = ", k->call == SOAK_CALL_MOVE ? "SOAK_CALL_MOVE" : "SOAK_CALL_MOVE_AND_SLIDE" );
	soak_print_vec2( f, k->delta );
	fprintf( f, ";\n" );
	if ( k->call == SOAK_CALL_MOVE_AND_SLIDE )
	{
		fprintf( f, "\tk->dt = " );
		soak_print_float( f, k->dt );
		fprintf( f, ";\n" );
	}
	fprintf( f, "\t// the soak saw: ends at (%.9g, %.9g), %.4g of its height inside a solid%s%s\n",
			 (double)k->expected_position.x, (double)k->expected_position.y, k->expected_heights,
			 k->note[0] != '\0' ? "; " : "", k->note );
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

// ---------------------------------------------------------------------------------------------------------------
// Actions

static float soak_dot( vec2s a, vec2s b )
{
	return a.x * b.x + a.y * b.y;
}

static vec2s soak_scale( vec2s v, float s )
{
	return kcc_v2( v.x * s, v.y * s );
}

static vec2s soak_direction( soak_source* src )
{
	double a = soak_uniform( src, 0.0, 2.0 * SOAK_PI );
	return kcc_v2( (float)cos( a ), (float)sin( a ) );
}

static bool soak_state_equal( const kcc_controller_state* a, const kcc_controller_state* b )
{
	return memcmp( &a->position, &b->position, sizeof( vec2s ) ) == 0 && a->flags == b->flags &&
		   memcmp( &a->floor_normal, &b->floor_normal, sizeof( vec2s ) ) == 0;
}

// A platformer (or top-down) velocity step: walking, gravity, jumps; scaled to the character's size.
static vec2s soak_gravity_velocity( soak_source* src, soak_character* ch, float* dt )
{
	vec2s up = ch->def.up, side = kcc_v2( up.y, -up.x );
	float h = (float)ch->height;
	*dt = soak_chance( src, 0.85 ) ? 1.0f / 60.0f : (float)soak_log_uniform( src, 1.0e-4, 0.1 );
	vec2s v = ch->velocity;
	if ( ch->def.mode == KCC_MODE_FLOATING )
	{
		if ( soak_chance( src, 0.1 ) )
		{
			v = soak_scale( soak_direction( src ), (float)soak_uniform( src, 0.0, 8.0 ) * h );
		}
	}
	else
	{
		float vx = soak_dot( v, side ), vy = soak_dot( v, up );
		if ( soak_chance( src, 0.08 ) )
		{
			vx = soak_chance( src, 0.2 ) ? 0.0f : (float)soak_uniform( src, -8.0, 8.0 ) * h;
		}
		vy -= 25.0f * h * *dt;
		if ( kcc_controller_is_on_floor( ch->c ) && soak_chance( src, 0.05 ) )
		{
			vy = (float)soak_uniform( src, 5.0, 15.0 ) * h;
		}
		v = kcc_v2( side.x * vx + up.x * vy, side.y * vx + up.y * vy );
	}
	float speed = sqrtf( soak_dot( v, v ) ), limit = 0.9f * ch->def.max_displacement / *dt;
	if ( speed > limit )
	{
		v = soak_scale( v, limit / speed );
	}
	return v;
}

// A random invalid call: an error status and no change at all. Returns false when the call broke that.
static bool soak_bad_call( soak_source* src, soak_character* ch )
{
	kcc_controller* c = ch->c;
	kcc_controller_state before = kcc_controller_get_state( c );
	kcc_move_result result;
	vec2s v = kcc_v2( 0.0f, 0.0f );
	kcc_status status;
	float big = ch->def.max_displacement;
	switch ( soak_int( src, 12 ) )
	{
		case 0:
			status = kcc_controller_move( c, kcc_v2( NAN, 0.1f ), &result );
			break;
		case 1:
			status = kcc_controller_move( c, kcc_v2( 0.0f, -INFINITY ), &result );
			break;
		case 2:
			status = kcc_controller_move( c, soak_scale( soak_direction( src ), big * 1.01f + 1.0f ), &result );
			break;
		case 3:
			status = kcc_controller_move_and_slide( c, kcc_v2( 1.0f, 0.0f ), 0.0f, &v, &result );
			break;
		case 4:
			status = kcc_controller_move_and_slide( c, kcc_v2( 1.0f, 0.0f ), -1.0f / 60.0f, &v, &result );
			break;
		case 5:
			status = kcc_controller_move_and_slide( c, kcc_v2( 1.0f, 0.0f ), NAN, &v, &result );
			break;
		case 6:
			status = kcc_controller_move_and_slide( c, kcc_v2( 1.0e30f, 0.0f ), 1.0e30f, &v, &result );
			break;
		case 7:
			status = kcc_controller_set_position( c, kcc_v2( NAN, 0.0f ) );
			break;
		case 8:
			status = kcc_controller_set_position( c, kcc_v2( 0.0f, ch->def.max_coordinate * 2.0f ) );
			break;
		case 9:
		{
			kcc_controller_state s = before;
			s.internal_cookie ^= 0x5a5a;
			status = kcc_controller_set_state( c, &s );
			break;
		}
		case 10:
		{
			kcc_controller_state s = before;
			s.position.x = INFINITY;
			status = kcc_controller_set_state( c, &s );
			break;
		}
		default:
			status = kcc_controller_move( NULL, kcc_v2( 0.1f, 0.0f ), &result ); // asserts in Debug (hooked)
			break;
	}
	kcc_controller_state after = kcc_controller_get_state( c );
	return status < 0 && soak_state_equal( &before, &after );
}

// The shape's index for a Chipmunk shape pointer, or -1.
static int soak_index_of( const soak_world* w, const cpShape* shape )
{
	for ( int i = 0; shape != NULL && i < w->shape_count; ++i )
	{
		if ( w->shapes[i].shape == shape )
		{
			return i;
		}
	}
	return -1;
}

static void soak_tally_add( soak_tally* t, bool overlap, double heights )
{
	t->moves += 1;
	if ( overlap )
	{
		t->overlaps += 1;
		t->worst = heights > t->worst ? heights : t->worst;
	}
}

static void soak_report( soak_world* w, int index, int action, const kcc_controller_state* before,
						 soak_case_call call, vec2s delta, float dt, const kcc_move_result* result,
						 const soak_check* check, const soak_run_config* config, soak_stats* stats )
{
	soak_character* ch = &w->characters[index];
	bool worst = check->heights > stats->worst || stats->have_worst_case == false;
	// The class, from what can be seen outside the controller. The first failure of each class is printed.
	const soak_shape* hit = check->shape_index >= 0 ? &w->shapes[check->shape_index] : NULL;
	bool into_one_way = hit != NULL && ( cpShapeGetFilter( hit->shape ).categories & ch->def.one_way_categories ) != 0;
	vec2s asked = call == SOAK_CALL_MOVE ? delta : soak_scale( delta, dt );
	vec2s moved = result->displacement;
	int klass = SOAK_FAIL_OTHER;
	if ( result->flags & KCC_CANDIDATES_TRUNCATED )
	{
		klass = SOAK_FAIL_TRUNCATED;
	}
	else if ( ch->riding )
	{
		klass = SOAK_FAIL_RIDING;
	}
	else if ( result->flags & KCC_DEPENETRATED )
	{
		klass = into_one_way ? SOAK_FAIL_PUSH_ONE_WAY : SOAK_FAIL_PUSH;
	}
	else if ( into_one_way )
	{
		klass = SOAK_FAIL_ONE_WAY;
	}
	else if ( ch->def.constant_speed_on_slopes && soak_dot( moved, moved ) > 1.000001f * soak_dot( asked, asked ) )
	{
		klass = SOAK_FAIL_LONGER;
	}
	else if ( soak_dot( moved, asked ) < 0.0f )
	{
		klass = SOAK_FAIL_AGAINST;
	}
	bool print = stats->printed < config->print_failures && config->log != NULL &&
				 ( stats->failures[klass].moves == 0 || config->only_world >= 0 );
	soak_tally_add( &stats->failures[klass], true, check->heights );
	if ( config->log != NULL )
	{
		const soak_shape* s = check->shape_index >= 0 ? &w->shapes[check->shape_index] : NULL;
		fprintf( config->log,
				 "soak: world %llu frame %d character %d (%s, options 0x%x) %s: %.4g heights inside shape %d (%s%s%s) "
				 "flags 0x%x%s [%s]\n",
				 (unsigned long long)stats->worlds, w->frame, index, soak_kind_name( ch->kind ), (unsigned)ch->options,
				 soak_action_name( action ), check->heights, check->shape_index,
				 s == NULL ? "-" : s->kind == SOAK_CIRCLE ? "circle" : s->kind == SOAK_SEGMENT ? "segment" : "polygon",
				 s != NULL && ( s->roles & SOAK_ROLE_PLATFORM ) ? ", platform" : "",
				 s != NULL && ( s->roles & SOAK_ROLE_CHARACTER ) ? ", character" : "", (unsigned)result->flags,
				 ch->riding ? ", riding" : "", soak_failure_name( klass ) );
	}
	if ( worst == false && print == false )
	{
		return;
	}
	soak_case* k = soak_case_new();
	soak_case_capture( w, index, before, call, delta, dt, k );
	k->expected_heights = check->heights;
	soak_case_outcome o = soak_case_run( k );
	bool same = memcmp( &o.result.position, &k->expected_position, sizeof( vec2s ) ) == 0;
	if ( print )
	{
		stats->printed += 1;
		fprintf( config->log, "soak: %s, reproduction (%d shapes) %s\n", soak_failure_name( klass ), k->shape_count,
				 same ? "ends at the same position" : o.fails ? "fails, at another position" : "does not fail" );
		if ( config->shrink && o.fails && soak_case_shrink( k ) )
		{
			fprintf( config->log, "soak: shrunk to %d shapes\n", k->shape_count );
		}
		fprintf( config->log, "{\n" );
		soak_case_print( config->log, k );
		fprintf( config->log, "}\n" );
	}
	if ( worst )
	{
		stats->worst_case = *k;
		stats->have_worst_case = true;
	}
	free( k );
}

// Whether p is clearly inside the character's max_coordinate (a move or a teleport there must succeed).
static bool soak_within( const soak_character* ch, vec2s p )
{
	float limit = 0.999f * ch->def.max_coordinate;
	return fabsf( p.x ) < limit && fabsf( p.y ) < limit;
}

// The character's shape is now the one spec makes (set_shape, or a restored snapshot): the controller's cpShape is a new
// one, maybe of another kind.
static void soak_sync_shape( soak_world* w, int index, const soak_shape_spec* spec )
{
	soak_character* ch = &w->characters[index];
	ch->spec = *spec;
	ch->def.shape = soak_make_character_shape( spec );
	ch->height = soak_character_height( &ch->def.shape, ch->def.up );
	w->shapes[ch->shape_index].shape = kcc_controller_get_shape( ch->c );
	w->shapes[ch->shape_index].kind = soak_kind_of_character( &ch->def.shape );
	soak_cache_update( w, ch->shape_index );
}

// set_shape to a shape of the same kind, half to one and a half times the size: taken, the new shape overlaps no
// solid (one-way shapes excepted) beyond the tolerance; refused with KCC_ERROR_BLOCKED, nothing changed.
static void soak_change_shape( soak_world* w, soak_source* src, int index, const soak_run_config* config,
							   soak_stats* stats )
{
	soak_character* ch = &w->characters[index];
	double smallest, largest = soak_shape_size( &ch->def.shape, &smallest );
	soak_shape_spec spec;
	soak_random_spec( src, ch->kind, largest * soak_uniform( src, 0.5, 1.5 ), ( ch->options & SOAK_OPT_THIN ) != 0,
					  ( ch->options & SOAK_OPT_OFFSET_SHAPE ) != 0, &spec );
	kcc_shape shape = soak_make_character_shape( &spec );
	if ( kcc_shape_is_valid( &shape ) == false )
	{
		return;
	}
	kcc_controller_state before = kcc_controller_get_state( ch->c );
	kcc_status status = kcc_controller_set_shape( ch->c, &shape );
	if ( status != KCC_OK )
	{
		kcc_controller_state after = kcc_controller_get_state( ch->c );
		if ( memcmp( &before.shape, &after.shape, sizeof( kcc_shape ) ) != 0 || soak_state_equal( &before, &after ) == false )
		{
			stats->moved_on_error += 1; // a refused shape changes nothing
		}
		return;
	}
	soak_sync_shape( w, index, &spec );
	stats->shape_changes += 1;
	soak_check check = soak_check_character( w, index, NULL, 0 );
	if ( check.counted )
	{
		stats->shape_overlaps += 1;
		if ( config->log != NULL )
		{
			fprintf( config->log, "soak: world %llu frame %d character %d (%s, options 0x%x, up (%g, %g)): set_shape took "
								  "a shape %.4g of its height inside shape %d\n",
					 (unsigned long long)stats->worlds, w->frame, index, soak_kind_name( ch->kind ), (unsigned)ch->options,
					 (double)ch->def.up.x, (double)ch->def.up.y, check.heights, check.shape_index );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Odd inputs (the fuzz target)

static float soak_odd_float( soak_source* src, float ordinary )
{
	static const float specials[] = { NAN,     INFINITY, -INFINITY, 0.0f,    -0.0f, 1.0e30f, -1.0e30f, 1.0e-40f,
									  FLT_MAX, -FLT_MAX, FLT_MIN,   -1.0f,   1.0e-7f, 1.0e7f, 1.5707964f, 3.0f };
	if ( soak_chance( src, 0.5 ) )
	{
		return specials[soak_int( src, (int)( sizeof( specials ) / sizeof( specials[0] ) ) )];
	}
	return ordinary * (float)soak_log_uniform( src, 1.0e-3, 1.0e3 ) * ( soak_chance( src, 0.2 ) ? -1.0f : 1.0f );
}

static void soak_unregister_character( soak_world* w, soak_character* ch )
{
	if ( ch->shape_index >= 0 )
	{
		w->shapes[ch->shape_index].shape = NULL; // skipped by every loop
	}
	kcc_controller_destroy( ch->c );
	ch->c = NULL;
	ch->shape_index = -1;
}

// Installs a controller made from def as character index (its old controller destroyed).
static void soak_adopt( soak_world* w, int index, kcc_controller* c, const kcc_controller_def* def,
						const soak_shape_spec* spec )
{
	soak_character* ch = &w->characters[index];
	soak_unregister_character( w, ch );
	memset( ch, 0, sizeof( *ch ) );
	ch->c = c;
	ch->def = *def;
	ch->spec = *spec;
	ch->kind = def->shape.type == KCC_SHAPE_CIRCLE ? SOAK_KIND_CIRCLE
			   : def->shape.type == KCC_SHAPE_CAPSULE ? SOAK_KIND_CAPSULE
			   : def->shape.type == KCC_SHAPE_POLYGON ? SOAK_KIND_POLYGON : SOAK_KIND_BOX;
	ch->height = soak_character_height( &def->shape, def->up );
	ch->shape_index = soak_register( w, kcc_controller_get_shape( c ), soak_kind_of_character( &def->shape ),
									 SOAK_ROLE_CHARACTER, index );
}

// A def with one to three odd fields: kcc_controller_create must return NULL exactly when
// kcc_controller_def_problem names a problem, and a controller it makes must move like any other.
static bool soak_odd_create( soak_world* w, soak_source* src, int index )
{
	soak_character fresh;
	memset( &fresh, 0, sizeof( fresh ) );
	if ( soak_random_def( src, &fresh ) == false )
	{
		return true;
	}
	kcc_controller_def def = fresh.def;
	soak_shape_spec spec = fresh.spec;
	bool raw_shape = false;
	int corruptions = 1 + soak_int( src, 3 );
	for ( int i = 0; i < corruptions; ++i )
	{
		switch ( soak_int( src, 18 ) )
		{
			case 0:
				spec.radius = soak_odd_float( src, spec.radius + 0.1f );
				break;
			case 1:
				spec.p[soak_int( src, 4 )] = soak_odd_float( src, 0.3f );
				break;
			case 2:
				spec.points[soak_int( src, KCC_MAX_POLYGON_VERTICES )] = kcc_v2( soak_odd_float( src, 0.3f ), soak_odd_float( src, 0.3f ) );
				spec.count = soak_int( src, KCC_MAX_POLYGON_VERTICES + 3 ) - 1;
				spec.count = spec.count < 0 ? 0 : spec.count > KCC_MAX_POLYGON_VERTICES ? KCC_MAX_POLYGON_VERTICES : spec.count;
				break;
			case 3:
				def.shape.type = (kcc_shape_type)( soak_int( src, 9 ) - 1 ); // raw: the struct no longer matches spec
				raw_shape = true;
				break;
			case 4:
				def.position = kcc_v2( soak_odd_float( src, 3.0f ), soak_odd_float( src, 3.0f ) );
				break;
			case 5:
				def.up = kcc_v2( soak_odd_float( src, 0.7f ), soak_odd_float( src, 0.7f ) );
				break;
			case 6:
				def.skin = soak_odd_float( src, def.skin );
				break;
			case 7:
				def.min_move = soak_odd_float( src, def.min_move );
				break;
			case 8:
				def.max_slides = soak_int( src, 40 ) - 10;
				break;
			case 9:
				def.max_floor_angle = soak_odd_float( src, def.max_floor_angle );
				break;
			case 10:
				def.snap_distance = soak_odd_float( src, 0.1f );
				break;
			case 11:
				def.step_height = soak_odd_float( src, 0.1f );
				break;
			case 12:
				def.mode = (kcc_motion_mode)( soak_int( src, 5 ) - 1 );
				break;
			case 13:
				def.max_displacement = soak_odd_float( src, def.max_displacement );
				break;
			case 14:
				def.max_coordinate = soak_odd_float( src, 50.0f );
				break;
			case 15:
				def.max_depenetration_iterations = soak_int( src, 40 ) - 10;
				break;
			case 16:
				def.max_candidates = soak_int( src, 70000 ) - 10;
				break;
			default:
				def.internal_cookie ^= 1 << soak_int( src, 31 );
				break;
		}
	}
	if ( raw_shape == false )
	{
		def.shape = soak_make_character_shape( &spec ); // may be invalid: refused below
	}
	const char* problem = kcc_controller_def_problem( &def );
	kcc_controller* c = kcc_controller_create( w->space, &def );
	if ( ( problem == NULL ) != ( c != NULL ) )
	{
		kcc_controller_destroy( c );
		return false;
	}
	if ( c == NULL )
	{
		return true;
	}
	if ( raw_shape )
	{
		kcc_controller_destroy( c ); // accepted, but it can not be printed from a spec: no moves with it
		return true;
	}
	soak_adopt( w, index, c, &def, &spec );
	return true;
}

// A snapshot with corrupted fields: refused with no change, or taken (a teleport); the move after it is checked.
static bool soak_odd_state( soak_source* src, soak_character* ch )
{
	kcc_controller_state before = kcc_controller_get_state( ch->c );
	kcc_controller_state s = before;
	switch ( soak_int( src, 5 ) )
	{
		case 0:
			s.flags = (uint32_t)soak_next( src );
			break;
		case 1:
			s.floor_normal = kcc_v2( soak_odd_float( src, 0.7f ), soak_odd_float( src, 0.7f ) );
			break;
		case 2:
			s.position = kcc_v2( soak_odd_float( src, 3.0f ), soak_odd_float( src, 3.0f ) );
			break;
		case 3:
			s.internal_cookie = (int)soak_next( src );
			break;
		default:
			s.flags = (uint32_t)soak_next( src );
			s.floor_normal = kcc_v2( soak_odd_float( src, 0.7f ), soak_odd_float( src, 0.7f ) );
			s.position.y += soak_odd_float( src, 0.01f );
			break;
	}
	kcc_status status = kcc_controller_set_state( ch->c, &s );
	kcc_controller_state after = kcc_controller_get_state( ch->c );
	if ( status != KCC_OK )
	{
		return soak_state_equal( &before, &after );
	}
	ch->drop_shape = NULL;
	ch->riding = false;
	return true;
}

// One action of character index, then the checks. Returns the moves made (0 or 1).
static int soak_act( soak_world* w, soak_source* src, int index, const soak_run_config* config, soak_stats* stats )
{
	soak_character* ch = &w->characters[index];
	bool odd = config->world.odd_inputs;
	if ( ch->c == NULL )
	{
		// Destroyed by an odd action: a new character takes its place.
		if ( odd && soak_character_create( w, src, index ) == false )
		{
			ch->c = NULL;
		}
		return 0;
	}
	kcc_controller* c = ch->c;
	float h = (float)ch->height;
	int action = SOAK_ACT_WALK;
	{
		static const double weights[SOAK_ACT_COUNT] = { 25, 6, 0.5, 8, 6, 40, 2, 2, 2, 2, 2, 0.5, 1, 2, 2, 1 };
		double total = 0.0;
		int actions = odd ? SOAK_ACT_COUNT : SOAK_ACT_ODD_DEF;
		for ( int i = 0; i < actions; ++i )
		{
			total += weights[i];
		}
		double u = soak_uniform( src, 0.0, total );
		for ( action = 0; action < actions - 1 && u >= weights[action]; ++action )
		{
			u -= weights[action];
		}
	}
	soak_case_call call = SOAK_CALL_MOVE;
	vec2s delta = kcc_v2( 0.0f, 0.0f );
	float dt = 1.0f / 60.0f;
	vec2s p = kcc_controller_get_position( c );
	switch ( action )
	{
		case SOAK_ACT_WALK:
			delta = soak_scale( soak_direction( src ), h * (float)soak_log_uniform( src, 1.0e-5, 3.0 ) );
			if ( soak_chance( src, 0.2 ) )
			{
				delta = soak_scale( kcc_v2( ch->def.up.y, -ch->def.up.x ), delta.x ); // lateral only
			}
			break;
		case SOAK_ACT_LONG:
			delta = soak_scale( soak_direction( src ), (float)fmin( soak_uniform( src, 0.0, 20.0 ), 0.99 * ch->def.max_displacement ) );
			break;
		case SOAK_ACT_HUGE:
			delta = soak_scale( soak_direction( src ), ch->def.max_displacement * (float)soak_uniform( src, 0.5, 0.999 ) );
			break;
		case SOAK_ACT_REVERSE:
			delta = soak_scale( ch->last_delta, -(float)soak_uniform( src, 0.2, 1.5 ) );
			if ( sqrtf( soak_dot( delta, delta ) ) > 0.99f * ch->def.max_displacement )
			{
				delta = soak_scale( ch->last_delta, -0.5f );
			}
			break;
		case SOAK_ACT_AIMED:
		{
			int i = soak_int( src, w->shape_count );
			if ( w->shapes[i].shape != NULL && i != ch->shape_index )
			{
				const soak_core* core = &soak_cache_of( w, i )->core;
				int v = soak_int( src, core->count );
				double scale = soak_uniform( src, 0.5, 1.5 );
				delta = kcc_v2( (float)( ( core->x[v] - p.x ) * scale ), (float)( ( core->y[v] - p.y ) * scale ) );
				float len = sqrtf( soak_dot( delta, delta ) );
				if ( len > 0.99f * ch->def.max_displacement )
				{
					delta = soak_scale( delta, 0.99f * ch->def.max_displacement / len );
				}
			}
			break;
		}
		case SOAK_ACT_DROP:
			if ( kcc_controller_drop_through( c ) )
			{
				ch->drop_shape = ch->floor_shape;
			}
			call = SOAK_CALL_MOVE_AND_SLIDE;
			delta = soak_gravity_velocity( src, ch, &dt );
			break;
		case SOAK_ACT_TELEPORT:
		case SOAK_ACT_INSIDE:
		{
			vec2s to = soak_find_clear_spot( w, src, ch, ch->shape_index );
			if ( action == SOAK_ACT_INSIDE )
			{
				// Onto a point of a solid shape: a vertex or the centre of its core.
				int i = soak_int( src, w->shape_count );
				if ( soak_blocks( w, ch, ch->shape_index, i ) )
				{
					const soak_core* core = &soak_cache_of( w, i )->core;
					int v = soak_int( src, core->count + 1 );
					double x = 0.0, y = 0.0;
					for ( int j = 0; j < core->count; ++j )
					{
						x += core->x[j] / core->count, y += core->y[j] / core->count;
					}
					if ( v < core->count )
					{
						x = core->x[v], y = core->y[v];
					}
					to = kcc_v2( (float)( x + soak_uniform( src, -0.3, 0.3 ) * h ), (float)( y + soak_uniform( src, -0.3, 0.3 ) * h ) );
				}
			}
			if ( kcc_controller_set_position( c, to ) != KCC_OK && soak_within( ch, to ) )
			{
				stats->wrong_status += 1;
			}
			ch->drop_shape = NULL;
			ch->riding = false;
			ch->velocity = kcc_v2( 0.0f, 0.0f );
			delta = soak_chance( src, 0.3 ) ? kcc_v2( 0.0f, 0.0f ) : soak_scale( soak_direction( src ), h * (float)soak_uniform( src, 0.0, 1.0 ) );
			break;
		}
		case SOAK_ACT_RESTORE:
			if ( ch->have_snapshot )
			{
				if ( kcc_controller_set_state( c, &ch->snapshot ) != KCC_OK )
				{
					stats->wrong_status += 1;
				}
				// The snapshot brings back its shape and up (and its floor and platform, which may be gone).
				ch->def.up = ch->snapshot.up;
				soak_sync_shape( w, index, &ch->snapshot_spec );
				ch->drop_shape = ch->snapshot.drop_shape;
				ch->floor_shape = ch->snapshot.floor_shape;
				ch->riding = ch->snapshot.platform != NULL;
			}
			call = SOAK_CALL_MOVE_AND_SLIDE;
			delta = soak_gravity_velocity( src, ch, &dt );
			break;
		case SOAK_ACT_SET_SHAPE:
			soak_change_shape( w, src, index, config, stats );
			call = SOAK_CALL_MOVE_AND_SLIDE;
			delta = soak_gravity_velocity( src, ch, &dt );
			break;
		case SOAK_ACT_SET_UP:
		{
			double a = soak_chance( src, 0.5 ) ? 0.0 : soak_chance( src, 0.3 ) ? SOAK_PI : soak_uniform( src, -1.4, 1.4 );
			vec2s up = kcc_v2( (float)-sin( a ), (float)cos( a ) );
			if ( kcc_controller_set_up( c, up ) == KCC_OK )
			{
				ch->def.up = kcc_controller_get_up( c );
				ch->height = soak_character_height( &ch->def.shape, ch->def.up );
				ch->riding = false;
				ch->drop_shape = NULL;
			}
			else
			{
				stats->wrong_status += 1;
			}
			call = SOAK_CALL_MOVE_AND_SLIDE;
			delta = soak_gravity_velocity( src, ch, &dt );
			break;
		}
		case SOAK_ACT_BAD:
			stats->bad_calls += 1;
			if ( soak_bad_call( src, ch ) == false )
			{
				stats->moved_on_error += 1;
				if ( config->log != NULL )
				{
					fprintf( config->log, "soak: world %llu frame %d character %d: an invalid call changed the state "
										  "or returned no error\n",
							 (unsigned long long)stats->worlds, w->frame, index );
				}
			}
			return 0;
		case SOAK_ACT_ODD_DEF:
		case SOAK_ACT_DESTROY:
			if ( ( action == SOAK_ACT_ODD_DEF ? soak_odd_create( w, src, index ) : true ) == false )
			{
				stats->wrong_status += 1;
				if ( config->log != NULL )
				{
					fprintf( config->log, "soak: world %llu frame %d character %d: kcc_controller_create and "
										  "kcc_controller_def_problem disagree\n",
							 (unsigned long long)stats->worlds, w->frame, index );
				}
			}
			if ( action == SOAK_ACT_DESTROY )
			{
				soak_unregister_character( w, ch );
				kcc_controller_destroy( NULL ); // a no-op
			}
			return 0;
		case SOAK_ACT_ODD_STATE:
			if ( soak_odd_state( src, ch ) == false )
			{
				stats->moved_on_error += 1;
				if ( config->log != NULL )
				{
					fprintf( config->log, "soak: world %llu frame %d character %d: a refused state changed the "
										  "controller\n",
							 (unsigned long long)stats->worlds, w->frame, index );
				}
			}
			call = SOAK_CALL_MOVE_AND_SLIDE;
			delta = soak_gravity_velocity( src, ch, &dt );
			break;
		default: // SOAK_ACT_GRAVITY
			call = SOAK_CALL_MOVE_AND_SLIDE;
			delta = soak_gravity_velocity( src, ch, &dt );
			break;
	}
	float length = sqrtf( soak_dot( delta, delta ) );
	if ( call == SOAK_CALL_MOVE && length > 0.99f * ch->def.max_displacement )
	{
		delta = soak_scale( delta, 0.99f * ch->def.max_displacement / length ); // valid: within max_displacement
	}
	if ( soak_chance( src, 0.03 ) )
	{
		ch->snapshot = kcc_controller_get_state( c );
		ch->snapshot_spec = ch->spec;
		ch->have_snapshot = true;
	}

	// The move.
	kcc_controller_state before = kcc_controller_get_state( c );
	vec2s start = before.position;
	bool riding = ch->riding;
	kcc_move_result result;
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	int asserts = s_assert_count;
	kcc_status status = call == SOAK_CALL_MOVE ? kcc_controller_move( c, delta, &result )
											   : kcc_controller_move_and_slide( c, delta, dt, &velocity, &result );
	stats->moves += 1;
	vec2s end = kcc_controller_get_position( c );
	bool finite = kcc_is_valid_vec2( end ) && kcc_is_valid_vec2( result.position ) &&
				  kcc_is_valid_vec2( result.displacement ) && kcc_is_valid_vec2( result.floor_normal ) &&
				  kcc_is_valid_vec2( velocity );
	for ( int i = 0; i < result.collision_count && i < KCC_MAX_COLLISIONS; ++i )
	{
		finite = finite && kcc_is_valid_vec2( result.collisions[i].normal ) && kcc_is_valid_vec2( result.collisions[i].point );
	}
	vec2s asked = call == SOAK_CALL_MOVE ? delta : soak_scale( delta, dt );
	bool valid = soak_within( ch, kcc_v2( start.x + asked.x, start.y + asked.y ) );
	if ( ( status != KCC_OK && valid ) || s_assert_count != asserts )
	{
		// Every call here is valid: |delta| within max_displacement, and (unless an odd def made max_coordinate
		// small) the end far inside max_coordinate.
		stats->wrong_status += 1;
		if ( config->log != NULL )
		{
			fprintf( config->log, "soak: world %llu frame %d character %d %s: status %d, %d asserts\n",
					 (unsigned long long)stats->worlds, w->frame, index, soak_action_name( action ), (int)status,
					 s_assert_count - asserts );
		}
	}
	stats->errors += status != KCC_OK;
	if ( status != KCC_OK && memcmp( &start, &end, sizeof( vec2s ) ) != 0 )
	{
		stats->moved_on_error += 1; // an error changes nothing
	}
	if ( finite == false )
	{
		stats->nan += 1;
		if ( config->log != NULL )
		{
			fprintf( config->log, "soak: world %llu frame %d character %d %s: NaN in the result\n",
					 (unsigned long long)stats->worlds, w->frame, index, soak_action_name( action ) );
		}
	}
	if ( finite && memcmp( &result.position, &end, sizeof( vec2s ) ) != 0 && status == KCC_OK )
	{
		stats->wrong_status += 1;
	}
	uint32_t flags = result.flags;
	stats->crushed += ( flags & KCC_CRUSHED ) != 0;
	stats->depenetrated += ( flags & KCC_DEPENETRATED ) != 0;
	stats->hit_limit += ( flags & KCC_HIT_LIMIT ) != 0;
	stats->truncated += ( flags & KCC_CANDIDATES_TRUNCATED ) != 0;
	stats->stepped += ( flags & KCC_STEPPED ) != 0;
	stats->snapped += ( flags & KCC_SNAPPED ) != 0;
	stats->on_floor += ( flags & KCC_ON_FLOOR ) != 0;

	soak_check check = { 0.0, 0.0, -1, false };
	if ( finite )
	{
		check = soak_check_character( w, index, &start, flags );
	}
	bool failed = check.counted;
	if ( failed )
	{
		stats->overlaps += 1;
		stats->overlaps_truncated += ( flags & KCC_CANDIDATES_TRUNCATED ) != 0;
		soak_report( w, index, action, &before, call, delta, dt, &result, &check, config, stats );
		stats->worst = check.heights > stats->worst ? check.heights : stats->worst;
	}
	soak_tally_add( &stats->kinds[ch->kind], failed, check.heights );
	for ( int bit = 0; bit < SOAK_OPT_COUNT; ++bit )
	{
		if ( ch->options & ( 1u << bit ) )
		{
			soak_tally_add( &stats->options[bit], failed, check.heights );
		}
	}
	soak_tally_add( &stats->actions[action], failed, check.heights );
	if ( riding )
	{
		soak_tally_add( &stats->riding, failed, check.heights );
	}

	// What the next move needs: the floor, the ride, the drop, the velocity; back into the level when it left.
	ch->floor_shape = ( flags & KCC_ON_FLOOR ) ? result.floor_shape : NULL;
	ch->riding = ch->floor_shape != NULL &&
				 cpBodyGetType( cpShapeGetBody( (cpShape*)ch->floor_shape ) ) == CP_BODY_TYPE_KINEMATIC;
	ch->last_delta = call == SOAK_CALL_MOVE ? delta : soak_scale( delta, dt );
	if ( call == SOAK_CALL_MOVE_AND_SLIDE )
	{
		ch->velocity = finite ? velocity : kcc_v2( 0.0f, 0.0f );
	}
	if ( ch->drop_shape != NULL )
	{
		int d = soak_index_of( w, ch->drop_shape );
		soak_core me;
		soak_core_from_character( &ch->def.shape, end, &me );
		if ( d < 0 || soak_core_contact( &me, &soak_cache_of( w, d )->core ).depth < -2.0 * ch->def.skin )
		{
			ch->drop_shape = NULL;
		}
	}
	soak_cache_update( w, ch->shape_index );
	double far = 3.0 * w->half_size;
	if ( finite == false || fabs( end.x ) > far || fabs( end.y ) > far )
	{
		kcc_controller_set_position( c, soak_find_clear_spot( w, src, ch, ch->shape_index ) );
		soak_cache_update( w, ch->shape_index );
		ch->velocity = kcc_v2( 0.0f, 0.0f );
		ch->drop_shape = NULL;
		ch->riding = false;
	}
	return 1;
}

uint64_t soak_world_run( soak_world* w, soak_source* src, int frames, const soak_run_config* config,
						 soak_stats* stats )
{
	uint64_t moves = 0;
	for ( int frame = 0; frame < frames && stats->moves < config->moves && soak_exhausted( src ) == false; ++frame )
	{
		soak_world_step_platforms( w );
		for ( int i = 0; i < w->character_count; ++i )
		{
			moves += (uint64_t)soak_act( w, src, i, config, stats );
		}
	}
	return moves;
}

void soak_hook_asserts( void )
{
	kcc_set_assert_fcn( soak_assert_hook );
}

void soak_run( const soak_run_config* config, soak_stats* stats )
{
	soak_hook_asserts();
	for ( uint64_t world = 0; stats->moves < config->moves; ++world )
	{
		if ( config->only_world >= 0 && world != (uint64_t)config->only_world )
		{
			if ( world > (uint64_t)config->only_world )
			{
				break;
			}
			continue;
		}
		soak_source src = soak_source_seeded( config->seed * 0x9E3779B97F4A7C15ull + world );
		soak_world* w = soak_world_create( &src, &config->world );
		stats->worlds = world;
		soak_world_run( w, &src, config->frames_per_world, config, stats );
		soak_world_destroy( w );
	}
	stats->worlds += 1;
	kcc_set_assert_fcn( NULL );
}

static void soak_tally_print( FILE* f, const char* name, const soak_tally* t )
{
	if ( t->moves == 0 )
	{
		return;
	}
	fprintf( f, "  %-18s %10llu moves %7llu overlaps (%.2f per million of them) worst %.4g heights\n", name,
			 (unsigned long long)t->moves, (unsigned long long)t->overlaps, 1.0e6 * (double)t->overlaps / (double)t->moves,
			 t->worst );
}

void soak_stats_print( FILE* f, const soak_stats* s )
{
	fprintf( f, "soak: %llu worlds, %llu moves, %llu unflagged overlaps beyond %g of the height (%llu of them "
				"truncated), worst %.4g heights\n",
			 (unsigned long long)s->worlds, (unsigned long long)s->moves, (unsigned long long)s->overlaps, SOAK_TOLERANCE,
			 (unsigned long long)s->overlaps_truncated, s->worst );
	fprintf( f, "soak: NaN %llu, wrong status or assert %llu, invalid calls %llu (%llu changed something)\n",
			 (unsigned long long)s->nan, (unsigned long long)s->wrong_status, (unsigned long long)s->bad_calls,
			 (unsigned long long)s->moved_on_error );
	fprintf( f, "soak: set_shape %llu taken, %llu of them overlapping a solid\n", (unsigned long long)s->shape_changes,
			 (unsigned long long)s->shape_overlaps );
	fprintf( f, "soak: flags: crushed %llu, depenetrated %llu, hit limit %llu, truncated %llu, stepped %llu, snapped "
				"%llu, on floor %llu\n",
			 (unsigned long long)s->crushed, (unsigned long long)s->depenetrated, (unsigned long long)s->hit_limit,
			 (unsigned long long)s->truncated, (unsigned long long)s->stepped, (unsigned long long)s->snapped,
			 (unsigned long long)s->on_floor );
	fprintf( f, "soak: per character kind\n" );
	for ( int i = 0; i < SOAK_KIND_COUNT; ++i )
	{
		soak_tally_print( f, soak_kind_name( i ), &s->kinds[i] );
	}
	fprintf( f, "soak: per option\n" );
	for ( int i = 0; i < SOAK_OPT_COUNT; ++i )
	{
		soak_tally_print( f, soak_option_name( i ), &s->options[i] );
	}
	fprintf( f, "soak: per action\n" );
	for ( int i = 0; i < SOAK_ACT_COUNT; ++i )
	{
		soak_tally_print( f, soak_action_name( i ), &s->actions[i] );
	}
	soak_tally_print( f, "riding a platform", &s->riding );
	fprintf( f, "soak: failures per class (per million moves, worst depth)\n" );
	for ( int i = 0; i < SOAK_FAIL_COUNT; ++i )
	{
		if ( s->failures[i].moves > 0 )
		{
			fprintf( f, "  %-42s %7llu (%.2f per million) worst %.4g heights\n", soak_failure_name( i ),
					 (unsigned long long)s->failures[i].moves, 1.0e6 * (double)s->failures[i].moves / (double)s->moves,
					 s->failures[i].worst );
		}
	}
}
