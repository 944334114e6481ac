// SPDX-License-Identifier: MIT
// Chipmunk shapes to core shapes, through Chipmunk's public API only. Chipmunk 7 has no public query for a shape's
// kind, and its per-kind getters abort on the wrong kind. So a circle or segment shape is recognised by its
// geometry (kcc_round_shape: what every circle and segment satisfies, checked with the public point query), and
// only a shape that is not round, hence a polygon, is read with the polygon getters.
#include "box_tile.h"
#include "chipmunk_bridge.h"
#include "internal.h"
// kcc_polygon_proxy_ok: the cast's checks of a polygon, made once per conversion.
#include "../geometry/internal.h"

#include <float.h>
#include <string.h>

// Sine of the smallest corner turn the quick polygon test accepts (about 0.57 degrees).
#define KCC_CLEAN_TURN 1.0e-2f

// Relative size of the rounding errors in a shape's cached double data, against its coordinates' magnitude. Far
// above double rounding (1e-16) and far below what float coordinates resolve (1e-7).
#define KCC_ROUND_SHAPE_TOLERANCE 1.0e-9

// Directions around a shape at which a round shape's geometry is checked against Chipmunk's point query: the
// eight compass points turned by 22.5 degrees, off every axis and diagonal.
#define KCC_ROUND_SHAPE_PROBES 8
static const double kcc_probe_directions[KCC_ROUND_SHAPE_PROBES][2] = {
	{ 0.92387953251128674, 0.38268343236508978 },   { 0.38268343236508978, 0.92387953251128674 },
	{ -0.38268343236508978, 0.92387953251128674 },  { -0.92387953251128674, 0.38268343236508978 },
	{ -0.92387953251128674, -0.38268343236508978 }, { -0.38268343236508978, -0.92387953251128674 },
	{ 0.38268343236508978, -0.92387953251128674 },  { 0.92387953251128674, -0.38268343236508978 },
};

typedef struct kcc_round_core
{
	cpVect a, b;   ///< the core segment (a == b: a circle)
	double radius;
} kcc_round_core;

static double kcc_bb_magnitude( cpBB bb )
{
	return fabs( bb.l ) + fabs( bb.r ) + fabs( bb.b ) + fabs( bb.t );
}

// True when the shape's area is more than any circle or segment shape with this bounding box can have, which makes
// it a polygon without a point query. A segment of radius r whose core spans (u, v) = (W - 2r, H - 2r) has area
// pi r^2 + 2 r |(u, v)| <= pi r^2 + 2 r (u + v) = 2 r (W + H) - (8 - pi) r^2 (a circle is u = v = 0). Tile boxes
// fail this bound by a wide margin.
static bool kcc_too_large_to_be_round( cpBB bb, double area )
{
	double slack = KCC_ROUND_SHAPE_TOLERANCE * ( kcc_bb_magnitude( bb ) + ( bb.r - bb.l ) + ( bb.t - bb.b ) );
	double w = bb.r - bb.l + slack;
	double h = bb.t - bb.b + slack;
	double r = ( w + h ) / ( 8.0 - CP_PI );
	double half = 0.5 * ( w < h ? w : h );
	r = r < half ? r : half;
	double bound = 2.0 * r * ( w + h ) - ( 8.0 - CP_PI ) * r * r;
	return area > bound * ( 1.0 + KCC_ROUND_SHAPE_TOLERANCE );
}

static double kcc_round_distance( const kcc_round_core* core, cpVect p )
{
	return cpvdist( p, cpClosetPointOnSegment( p, core->a, core->b ) ) - core->radius;
}

// Whether the shape is a disc or a capsule (a circle or segment shape, or a polygon of that geometry), and its core.
// A circle or segment has its core's middle at its bounding box's centre, its radius as the depth there, and its
// core's ends on a diagonal of the box inset by the radius; the point query must then agree with that geometry all
// around the shape. Every circle and segment passes (the tolerance is far above double rounding); a polygon passes
// only when it is that round shape to within the tolerance, and then it is treated as one.
static bool kcc_round_shape( const cpShape* shape, cpBB bb, double area, kcc_round_core* out )
{
	double w = bb.r - bb.l, h = bb.t - bb.b;
	double tolerance = KCC_ROUND_SHAPE_TOLERANCE * ( kcc_bb_magnitude( bb ) + w + h );
	cpVect center = cpv( 0.5 * ( bb.l + bb.r ), 0.5 * ( bb.b + bb.t ) );
	cpPointQueryInfo info;
	cpShapePointQuery( shape, center, &info );
	double half = 0.5 * ( w < h ? w : h );
	double radius = -info.distance;
	if ( !( radius >= -tolerance && radius <= half + tolerance ) )
	{
		return false; // the centre is outside the shape (NaN fails here too)
	}
	radius = radius < 0.0 ? 0.0 : radius > half ? half : radius;
	cpVect lo = cpv( bb.l + radius, bb.b + radius );
	cpVect hi = cpv( bb.r - radius, bb.t - radius );
	// Chipmunk's area of a circle or segment shape: pi r^2 + 2 r |core| (a triangle tile fails here).
	double length = cpvdist( lo, hi );
	double expected = radius * ( CP_PI * radius + 2.0 * length );
	double area_tolerance = tolerance * ( 2.0 * CP_PI * radius + 2.0 * length + 4.0 * radius + tolerance ) +
							KCC_ROUND_SHAPE_TOLERANCE * area;
	if ( !( fabs( area - expected ) <= area_tolerance ) )
	{
		return false;
	}
	kcc_round_core rising = { lo, hi, radius };
	kcc_round_core falling = { cpv( lo.x, hi.y ), cpv( hi.x, lo.y ), radius };
	cpShapePointQuery( shape, rising.a, &info );
	double off_rising = fabs( info.distance + radius );
	cpShapePointQuery( shape, falling.a, &info );
	double off_falling = fabs( info.distance + radius );
	*out = off_rising <= off_falling ? rising : falling;
	if ( cpvdist( out->a, out->b ) <= tolerance )
	{
		out->a = out->b = center; // a disc
	}
	double reach = w + h + radius + 1.0;
	for ( int k = 0; k < KCC_ROUND_SHAPE_PROBES; ++k )
	{
		cpVect p = cpvadd( center, cpvmult( cpv( kcc_probe_directions[k][0], kcc_probe_directions[k][1] ), reach ) );
		cpShapePointQuery( shape, p, &info );
		if ( !( fabs( info.distance - kcc_round_distance( out, p ) ) <= tolerance ) )
		{
			return false;
		}
	}
	return true;
}

// Turn at vertex b (a -> b -> c), in double as kcc_shape_is_valid measures it: > 0 for a strictly convex,
// counter-clockwise corner.
static double kcc_turn( vec2s a, vec2s b, vec2s c )
{
	double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
	double fx = (double)c.x - b.x, fy = (double)c.y - b.y;
	return ex * fy - ey * fx;
}

// Unit normal of the edge a -> b (the edge turned clockwise), zero for a point.
static vec2s kcc_edge_normal( vec2s a, vec2s b )
{
	vec2s e = glms_vec2_sub( b, a );
	float len = glms_vec2_norm( e );
	vec2s normal = { { 0.0f, 0.0f } };
	if ( len > 0.0f )
	{
		normal.x = e.y / len;
		normal.y = -e.x / len;
	}
	return normal;
}

// Sine of a corner's turn below which its edges' float normals do not tell it from flat (about 16 roundings).
#define KCC_FLAT_CORNER 1.0e-6f

// The first corner of a polygon that is not strictly convex, exactly (in double) or for its edges' float normals;
// -1 when there is none. normals[i] belongs to the edge from vertex i to vertex i + 1.
static int kcc_flat_corner( const vec2s* vertices, const vec2s* normals, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		int before = i > 0 ? i - 1 : n - 1;
		if ( !( kcc_turn( vertices[before], vertices[i], vertices[i + 1 < n ? i + 1 : 0] ) > 0.0 ) ||
			 !( glms_vec2_cross( normals[before], normals[i] ) > KCC_FLAT_CORNER ) )
		{
			return i;
		}
	}
	return -1;
}

// Chipmunk accepts polygons the core does not: repeated or collinear vertices (cpPolyShapeNewRaw, a box of zero
// height), and rounding to the local frame can flatten a corner of a large, nearly round polygon. Drop every
// vertex that is not a strictly convex corner; what remains is a valid polygon, or a capsule (two points) or a
// circle (one point) of the same radius, so a degenerate shape still blocks like its segment.
static void kcc_clean_polygon( kcc_shape* out )
{
	kcc_polygon* p = &out->polygon;
	int n = p->count;
	// Quick test on the unit edge normals (cheap: they are at hand): a corner turning by more than about half a
	// degree is strictly convex after rounding too, unless one of its edges is shorter than about 1e-5 of its
	// distance from the character. Anything else (repeated vertices have zero normals) takes the exact path below.
	vec2s previous = p->normals[n - 1];
	bool all_convex = true;
	for ( int i = 0; i < n; ++i )
	{
		vec2s normal = p->normals[i];
		all_convex &= previous.x * normal.y - previous.y * normal.x > KCC_CLEAN_TURN; // no branch per corner
		previous = normal;
	}
	if ( all_convex )
	{
		return; // the common case: nothing to clean
	}
	vec2s original[KCC_MAX_POLYGON_VERTICES];
	int original_count = n;
	memcpy( original, p->vertices, (size_t)n * sizeof( vec2s ) );
	// Drop a corner that is not strictly convex, exactly or for the float normals of its two edges (a corner that
	// turns by less than their rounding is flat to the core), until every corner is.
	for ( int bad = kcc_flat_corner( p->vertices, p->normals, n ); bad >= 0 && n >= 3;
		  bad = kcc_flat_corner( p->vertices, p->normals, n ) )
	{
		for ( int i = bad; i + 1 < n; ++i )
		{
			p->vertices[i] = p->vertices[i + 1];
		}
		n -= 1;
		for ( int i = 0; i < n; ++i )
		{
			p->normals[i] = kcc_edge_normal( p->vertices[i], p->vertices[i + 1 < n ? i + 1 : 0] );
		}
	}
	if ( n >= 3 )
	{
		p->count = n;
		return;
	}
	// Collinear (or a point): the segment between the two original vertices farthest apart.
	int best_a = 0, best_b = 0;
	float best = -1.0f;
	for ( int i = 0; i < original_count; ++i )
	{
		for ( int j = i + 1; j < original_count; ++j )
		{
			float d = glms_vec2_distance2( original[j], original[i] );
			if ( d > best )
			{
				best = d;
				best_a = i;
				best_b = j;
			}
		}
	}
	float radius = p->radius;
	out->type = KCC_SHAPE_CAPSULE;
	out->capsule.a = original[best_a];
	out->capsule.b = original[best_b];
	out->capsule.radius = radius;
}

// The first and last vertex of a polygon's fan piece after vertex 0 (count > KCC_MAX_POLYGON_VERTICES).
static void kcc_piece_range( int count, int piece, int* first, int* last )
{
	int step = KCC_MAX_POLYGON_VERTICES - 2;
	*first = 1 + piece * step;
	*last = *first + KCC_MAX_POLYGON_VERTICES - 2;
	if ( *last > count - 1 )
	{
		*last = count - 1;
	}
}

// Chipmunk's world vertices first .. first + n - 1 of a polygon (its local vertices moved by the body exactly as
// Chipmunk caches them).
static void kcc_polygon_world_vertices( const cpShape* shape, int count, int first, int n, cpVect* out )
{
	const cpBody* body = cpShapeGetBody( shape );
	if ( count <= KCC_MAX_POLYGON_VERTICES )
	{
		// The body's transform as cpBodyLocalToWorld applies it: rotation, then the body's origin (the static body's
		// is the identity).
		cpVect rotation = cpBodyGetRotation( body );
		cpVect origin = cpBodyGetPosition( body );
		bool identity = rotation.x == 1.0 && rotation.y == 0.0 && origin.x == 0.0 && origin.y == 0.0;
		for ( int i = 0; i < n; ++i )
		{
			cpVect v = cpPolyShapeGetVert( shape, first + i );
			if ( identity == false )
			{
				v = cpv( rotation.x * v.x - rotation.y * v.y + origin.x, rotation.y * v.x + rotation.x * v.y + origin.y );
			}
			out[i] = v;
		}
		return;
	}
	for ( int i = 0; i < n; ++i )
	{
		out[i] = cpBodyLocalToWorld( body, cpPolyShapeGetVert( shape, first + i ) );
	}
}

// The normals of a counter-clockwise, axis-aligned rectangle (a box tile), bit for bit what kcc_edge_normal gives,
// without its square roots and divisions: a side along x of length w has the normal (its zero y, -sign( w )), one
// along y of length h (sign( h ), its zero x negated). For vertices whose first side is along x (v0, v1 share y; v1,
// v2 share x; ...): true when the sides turn left and are in the exact range, and then kcc_clean_polygon has nothing
// to clean; else false (nothing written).
KCC_ALWAYS_INLINE bool kcc_rectangle_normals_x_first( kcc_polygon* p )
{
	const vec2s* v = p->vertices;
	vec2s* n = p->normals;
	// w, then h of the same sign (a left turn); the third and fourth sides are the first two reversed.
	float w = v[1].x - v[0].x, h = v[2].y - v[1].y;
	if ( kcc_rectangle_sides_ok( w, h, false ) == false )
	{
		return false;
	}
	float s = w > 0.0f ? 1.0f : -1.0f;
	n[0] = kcc_v2( v[1].y - v[0].y, -s );
	n[1] = kcc_v2( s, -( v[2].x - v[1].x ) );
	n[2] = kcc_v2( v[3].y - v[2].y, s );
	n[3] = kcc_v2( -s, -( v[0].x - v[3].x ) );
	return true;
}

// kcc_rectangle_normals_x_first for a first side along y (v0, v1 share x; v1, v2 share y; ...).
KCC_ALWAYS_INLINE bool kcc_rectangle_normals_y_first( kcc_polygon* p )
{
	const vec2s* v = p->vertices;
	vec2s* n = p->normals;
	// h, then w of the opposite sign (a left turn).
	float h = v[1].y - v[0].y, w = v[2].x - v[1].x;
	if ( kcc_rectangle_sides_ok( w, h, true ) == false )
	{
		return false;
	}
	float s = h > 0.0f ? 1.0f : -1.0f;
	n[0] = kcc_v2( s, -( v[1].x - v[0].x ) );
	n[1] = kcc_v2( v[2].y - v[1].y, s );
	n[2] = kcc_v2( -s, -( v[3].x - v[2].x ) );
	n[3] = kcc_v2( v[0].y - v[3].y, -s );
	return true;
}

// The rectangle normals of a polygon of four vertices when its sides lie on the axes (x first is tried first). False
// for any other polygon of four vertices (nothing written).
static bool kcc_rectangle_normals( kcc_polygon* p )
{
	const vec2s* v = p->vertices;
	if ( v[0].y == v[1].y && v[1].x == v[2].x && v[2].y == v[3].y && v[3].x == v[0].x )
	{
		return kcc_rectangle_normals_x_first( p );
	}
	if ( v[0].x == v[1].x && v[1].y == v[2].y && v[2].x == v[3].x && v[3].y == v[0].y )
	{
		return kcc_rectangle_normals_y_first( p );
	}
	return false;
}

// A polygon piece's world vertices (n >= 3) in the local frame: in float around the character, with the normals of
// those float edges (far from the character, float vertices move by their rounding and Chipmunk's own normals would
// no longer be perpendicular to them), cleaned.
static void kcc_local_polygon( const cpVect* world, int n, float radius, vec2s origin, kcc_shape* out )
{
	kcc_polygon* p = &out->polygon;
	out->type = KCC_SHAPE_POLYGON;
	p->radius = radius;
	for ( int i = 0; i < n; ++i )
	{
		p->vertices[i] = kcc_bridge_relative( world[i], origin );
	}
	p->count = n;
	if ( n != 4 || kcc_rectangle_normals( p ) == false )
	{
		for ( int i = 0; i < n; ++i )
		{
			p->normals[i] = kcc_edge_normal( p->vertices[i], p->vertices[i + 1 < n ? i + 1 : 0] );
		}
		kcc_clean_polygon( out );
	}
	if ( out->type == KCC_SHAPE_POLYGON )
	{
		p->centroid = p->vertices[0]; // nothing in a move reads a core's centroid: any point of it will do
	}
}

// A static rectangle (kcc_static_shape.rectangle) in the local frame, as kcc_local_polygon converts it: each corner's
// coordinates are point 0's or point 2's, rounded once (a box tile's are its bb's). False when its normals are not the
// rectangle's (a side rounded to zero): kcc_local_polygon decides then.
static bool kcc_local_rectangle( const kcc_static_shape* s, vec2s origin, kcc_shape* out )
{
	kcc_polygon* p = &out->polygon;
	vec2s a = kcc_bridge_relative( kcc_static_shape_point( s, 0 ), origin );
	vec2s c = kcc_bridge_relative( kcc_static_shape_point( s, 2 ), origin );
	p->vertices[0] = a;
	p->vertices[1] = s->rectangle_y_first ? kcc_v2( a.x, c.y ) : kcc_v2( c.x, a.y );
	p->vertices[2] = c;
	p->vertices[3] = s->rectangle_y_first ? kcc_v2( c.x, a.y ) : kcc_v2( a.x, c.y );
	// Its vertices pass kcc_rectangle_normals' test for the same first side: only the sides' checks remain.
	if ( ( s->rectangle_y_first ? kcc_rectangle_normals_y_first( p ) : kcc_rectangle_normals_x_first( p ) ) == false )
	{
		return false;
	}
	out->type = KCC_SHAPE_POLYGON;
	p->radius = s->radius;
	p->count = 4;
	p->centroid = a;
	return true;
}

// A polygon's piece in the local frame, from its count world vertices.
static void kcc_local_polygon_piece( const cpVect* world, int count, int piece, float radius, vec2s origin,
									 kcc_shape* out )
{
	if ( count <= KCC_MAX_POLYGON_VERTICES )
	{
		kcc_local_polygon( world, count, radius, origin, out );
		return;
	}
	cpVect v[KCC_MAX_POLYGON_VERTICES];
	int first, last;
	kcc_piece_range( count, piece, &first, &last );
	int n = 0;
	v[n++] = world[0];
	for ( int i = first; i <= last && n < KCC_MAX_POLYGON_VERTICES; ++i )
	{
		v[n++] = world[i];
	}
	kcc_local_polygon( v, n, radius, origin, out );
}

// A Chipmunk polygon's piece in the local frame, read through the getters.
static void kcc_convert_polygon( const kcc_controller* c, const cpShape* shape, int count, int piece, float radius,
								 kcc_shape* out )
{
	cpVect v[KCC_MAX_POLYGON_VERTICES];
	if ( count <= KCC_MAX_POLYGON_VERTICES )
	{
		kcc_polygon_world_vertices( shape, count, 0, count, v );
		kcc_local_polygon( v, count, radius, c->move->origin, out );
		return;
	}
	int first, last;
	kcc_piece_range( count, piece, &first, &last );
	int n = last - first + 1 < KCC_MAX_POLYGON_VERTICES - 1 ? last - first + 1 : KCC_MAX_POLYGON_VERTICES - 1;
	kcc_polygon_world_vertices( shape, count, 0, 1, v );
	kcc_polygon_world_vertices( shape, count, first, n, v + 1 );
	kcc_local_polygon( v, n + 1, radius, c->move->origin, out );
}

// Fan pieces of a polygon with count vertices: vertex 0 plus up to KCC_MAX_POLYGON_VERTICES - 1 consecutive
// vertices each, consecutive pieces sharing an edge.
static int kcc_polygon_piece_count( int count )
{
	if ( count <= KCC_MAX_POLYGON_VERTICES )
	{
		return 1;
	}
	int step = KCC_MAX_POLYGON_VERTICES - 2;
	return ( count - 2 + step - 1 ) / step;
}

// A polygon's pieces after the first join the candidate list when its first piece is converted.
static void kcc_add_pieces( kcc_controller* c, const kcc_candidate* first, int pieces )
{
	for ( int k = 1; k < pieces; ++k )
	{
		if ( c->move->candidate_count >= c->def.max_candidates )
		{
			c->move->candidate_overflow = true;
			return;
		}
		kcc_candidate* cand = c->move->candidates + c->move->candidate_count++;
		*cand = *first;
		cand->piece = k;
		cand->converted = false;
	}
}

kcc_shape_reading kcc_read_shape( const cpShape* shape, cpBB bb )
{
	kcc_shape_reading r = { KCC_SHAPE_INVALID, 0.0f, 0, cpvzero, cpvzero };
	double area = cpShapeGetArea( (cpShape*)shape );
	if ( !( isfinite( kcc_bb_magnitude( bb ) ) && isfinite( area ) ) )
	{
		return r; // not a usable shape (NaN or infinite data)
	}
	kcc_round_core round;
	if ( kcc_too_large_to_be_round( bb, area ) == false && kcc_round_shape( shape, bb, area, &round ) )
	{
		r.type = round.a.x == round.b.x && round.a.y == round.b.y ? KCC_SHAPE_CIRCLE : KCC_SHAPE_CAPSULE;
		r.radius = kcc_bridge_to_float( round.radius );
		r.a = round.a;
		r.b = round.b;
		return r;
	}
	const cpBody* body = cpShapeGetBody( shape );
	int count = cpPolyShapeGetCount( shape );
	r.radius = kcc_bridge_to_float( cpPolyShapeGetRadius( shape ) );
	if ( count < 3 )
	{
		// A degenerate Chipmunk polygon (a segment or a point) is a capsule.
		r.type = KCC_SHAPE_CAPSULE;
		r.a = cpBodyLocalToWorld( body, cpPolyShapeGetVert( shape, 0 ) );
		r.b = cpBodyLocalToWorld( body, cpPolyShapeGetVert( shape, count - 1 ) );
		return r;
	}
	r.type = KCC_SHAPE_POLYGON;
	r.count = count;
	return r;
}

void kcc_read_polygon_vertices( const cpShape* shape, int count, cpVect* out )
{
	kcc_polygon_world_vertices( shape, count, 0, count, out );
}

// A circle or capsule reading in the local frame.
static void kcc_local_round( const kcc_shape_reading* r, vec2s origin, kcc_shape* out )
{
	out->type = r->type;
	if ( r->type == KCC_SHAPE_CIRCLE )
	{
		out->circle.center = kcc_bridge_relative( r->a, origin );
		out->circle.radius = r->radius;
		return;
	}
	out->capsule.a = kcc_bridge_relative( r->a, origin );
	out->capsule.b = kcc_bridge_relative( r->b, origin );
	out->capsule.radius = r->radius;
}

// The checks each cast would make on a polygon core, made once (a box tile's are made as it is converted).
static void kcc_set_cast_ready( kcc_candidate* candidate )
{
	const kcc_shape* core = &candidate->core;
	candidate->cast_ready = core->type == KCC_SHAPE_POLYGON && kcc_polygon_proxy_ok( &core->polygon );
}

// A polygon of the static index that is not a rectangle in the local frame, piece by piece.
static void kcc_convert_static_polygon( kcc_controller* c, kcc_candidate* candidate )
{
	const kcc_static_shape* s = candidate->source;
	if ( candidate->piece == 0 )
	{
		kcc_add_pieces( c, candidate, kcc_polygon_piece_count( s->count ) );
	}
	cpVect corners[4];
	kcc_local_polygon_piece( kcc_static_shape_points( s, corners ), s->count, candidate->piece, s->radius,
							 c->move->origin, &candidate->core );
	kcc_set_cast_ready( candidate );
}

// A candidate of the static index: its shape was read when the index was built, and its cpShape is never touched.
static void kcc_convert_static( kcc_controller* c, kcc_candidate* candidate )
{
	const kcc_static_shape* s = candidate->source;
	kcc_shape* out = &candidate->core;
	// Its roles were set when it was gathered.
	if ( s->type == KCC_SHAPE_POLYGON )
	{
		if ( s->rectangle && kcc_local_rectangle( s, c->move->origin, out ) )
		{
			// A box tile, one piece: kcc_polygon_proxy_ok's checks reduce to its two corners (every vertex repeats
			// their coordinates) and its radius (its normals are exact units).
			vec2s a = out->polygon.vertices[0], b = out->polygon.vertices[2];
			candidate->cast_ready = kcc_usable_vec2( a ) && kcc_usable_vec2( b ) && kcc_valid_radius( s->radius );
			return;
		}
		kcc_convert_static_polygon( c, candidate );
		return;
	}
	candidate->cast_ready = false;
	if ( s->type == KCC_SHAPE_INVALID )
	{
		out->type = KCC_SHAPE_INVALID;
		candidate->blocks = false;
		candidate->sensor = false;
		return;
	}
	kcc_shape_reading r = { (kcc_shape_type)s->type, s->radius, 0, kcc_static_shape_point( s, 0 ),
							kcc_static_shape_point( s, s->count - 1 ) };
	kcc_local_round( &r, c->move->origin, out );
}

static void kcc_convert_chipmunk( kcc_controller* c, kcc_candidate* candidate );

void kcc_world_convert( kcc_controller* c, kcc_candidate* candidate )
{
	candidate->converted = true;
	if ( candidate->source != NULL )
	{
		kcc_convert_static( c, candidate );
		return;
	}
	kcc_convert_chipmunk( c, candidate );
	kcc_set_cast_ready( candidate );
}

// A candidate from Chipmunk, read through its getters.
static void kcc_convert_chipmunk( kcc_controller* c, kcc_candidate* candidate )
{
	const cpShape* shape = candidate->shape;
	kcc_shape* out = &candidate->core;
	kcc_candidate_roles( c, candidate, cpShapeGetFilter( shape ).categories );
	if ( ( candidate->one_way || candidate->pushable ) && kcc_world_character_of( shape ) != NULL )
	{
		// Another character: it blocks like a wall (passing through it from the side, or moving the body its
		// controller owns and puts back, would let two characters overlap).
		candidate->one_way = false;
		candidate->pushable = false;
	}
	if ( candidate->piece > 0 )
	{
		// A later piece of a polygon whose first piece was read already.
		kcc_convert_polygon( c, shape, cpPolyShapeGetCount( shape ), candidate->piece,
							 kcc_bridge_to_float( cpPolyShapeGetRadius( shape ) ), out );
		return;
	}
	kcc_shape_reading r = kcc_read_shape( shape, candidate->bb );
	if ( r.type == KCC_SHAPE_INVALID )
	{
		// Not a usable shape: it is left out of the move.
		out->type = KCC_SHAPE_INVALID;
		candidate->blocks = false;
		candidate->sensor = false;
		return;
	}
	if ( r.type != KCC_SHAPE_POLYGON )
	{
		kcc_local_round( &r, c->move->origin, out );
		return;
	}
	kcc_add_pieces( c, candidate, kcc_polygon_piece_count( r.count ) );
	kcc_convert_polygon( c, shape, r.count, 0, r.radius, out );
}

vec2s kcc_world_surface_velocity( const kcc_candidate* candidate )
{
	// Chipmunk moves what rests on a shape at its surface velocity (its friction drives the relative sliding to it).
	// Most floors have none: the body is looked at only for a belt. The static index read it when it was built.
	const cpShape* shape = candidate->shape;
	cpVect v = candidate->source != NULL ? kcc_static_shape_surface_velocity( candidate->source )
										: cpShapeGetSurfaceVelocity( shape );
	if ( v.x == 0.0 && v.y == 0.0 )
	{
		return kcc_v2( 0.0f, 0.0f );
	}
	const cpBody* body = candidate->source != NULL ? NULL : cpShapeGetBody( shape );
	vec2s belt = kcc_bridge_from_cpv( v );
	bool dynamic = candidate->source == NULL && ( body == NULL || cpBodyGetType( (cpBody*)body ) == CP_BODY_TYPE_DYNAMIC );
	return dynamic == false && kcc_is_valid_vec2( belt ) ? belt : kcc_v2( 0.0f, 0.0f );
}
