// SPDX-License-Identifier: MIT
// The controller's side of Chipmunk: its own body and shape, the one bounding box query per move, and the
// conversion of Chipmunk shapes to core shapes. Every float <-> double conversion goes through chipmunk_bridge.h.
#include "chipmunk_bridge.h"
#include "internal.h"

#include <chipmunk/chipmunk_structs.h>

#include <string.h>

// Sine of the smallest corner turn the quick polygon test accepts (about 0.57 degrees).
#define KCC_CLEAN_TURN 1.0e-2f

bool kcc_world_create( kcc_controller* c )
{
	cpBody* body = cpBodyNewKinematic();
	if ( body == NULL )
	{
		return false;
	}
	cpBodySetPosition( body, kcc_bridge_to_cpv( c->position ) );

	const kcc_shape* s = &c->local_shape;
	cpShape* shape = NULL;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			shape = cpCircleShapeNew( body, kcc_bridge_to_double( s->circle.radius ),
									  kcc_bridge_to_cpv( s->circle.center ) );
			break;
		case KCC_SHAPE_CAPSULE:
			shape = cpSegmentShapeNew( body, kcc_bridge_to_cpv( s->capsule.a ), kcc_bridge_to_cpv( s->capsule.b ),
									   kcc_bridge_to_double( s->capsule.radius ) );
			break;
		case KCC_SHAPE_POLYGON:
		{
			cpVect verts[KCC_MAX_POLYGON_VERTICES];
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				verts[i] = kcc_bridge_to_cpv( s->polygon.vertices[i] );
			}
			// Our polygon is already a counter-clockwise convex hull: no second hull.
			shape = cpPolyShapeNewRaw( body, s->polygon.count, verts, kcc_bridge_to_double( s->polygon.radius ) );
			break;
		}
		default:
			break;
	}
	if ( shape == NULL )
	{
		cpBodyFree( body );
		return false;
	}
	cpShapeSetFilter( shape, c->query_filter );
	cpShapeSetUserData( shape, c );
	cpSpaceAddBody( c->space, body );
	cpSpaceAddShape( c->space, shape );
	c->body = body;
	c->shape = shape;
	return true;
}

void kcc_world_destroy( kcc_controller* c )
{
	if ( c->shape != NULL )
	{
		if ( cpSpaceContainsShape( c->space, c->shape ) )
		{
			cpSpaceRemoveShape( c->space, c->shape );
		}
		cpShapeFree( c->shape );
		c->shape = NULL;
	}
	if ( c->body != NULL )
	{
		if ( cpSpaceContainsBody( c->space, c->body ) )
		{
			cpSpaceRemoveBody( c->space, c->body );
		}
		cpBodyFree( c->body );
		c->body = NULL;
	}
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

static void kcc_gather_callback( cpShape* shape, void* data )
{
	kcc_controller* c = data;
	if ( shape == c->shape )
	{
		return;
	}
	int pieces = 1;
	if ( shape->klass->type == CP_POLY_SHAPE )
	{
		pieces = kcc_polygon_piece_count( ( (const cpPolyShape*)shape )->count );
	}
	if ( c->candidate_count + pieces > c->candidate_capacity )
	{
		c->candidate_overflow = true;
		return;
	}
	cpBB bb = shape->bb;
	kcc_aabb bounds;
	bounds.min = kcc_bridge_relative( cpv( bb.l, bb.b ), c->origin );
	bounds.max = kcc_bridge_relative( cpv( bb.r, bb.t ), c->origin );
	for ( int k = 0; k < pieces; ++k )
	{
		kcc_candidate* cand = c->candidates + c->candidate_count++;
		cand->bounds = bounds;
		cand->shape = shape;
		cand->key = (uint32_t)shape->hashid;
		cand->piece = k;
		cand->sensor = shape->sensor != cpFalse;
		cand->blocks = cand->sensor == false;
		cand->converted = false;
	}
}

void kcc_world_gather( kcc_controller* c, kcc_aabb region )
{
	c->candidate_count = 0;
	c->candidate_overflow = false;
	cpVect lo = kcc_bridge_world( c->origin, region.min );
	cpVect hi = kcc_bridge_world( c->origin, region.max );
	cpBB box = cpBBNew( lo.x, lo.y, hi.x, hi.y );
	if ( c->drop_shape == NULL )
	{
		cpSpaceBBQuery( c->space, box, c->query_filter, kcc_gather_callback, c );
		return;
	}
	cpSpaceBBQuery( c->space, box, c->query_filter, kcc_gather_callback, c );
	{
		// Dropping through a one-way shape: it does not block (rare: a separate loop keeps the callback short).
		for ( int i = 0; i < c->candidate_count; ++i )
		{
			if ( c->candidates[i].shape == c->drop_shape )
			{
				c->candidates[i].blocks = false;
			}
		}
	}
}

// Area centroid of a convex polygon (fan from vertex 0).
static vec2s kcc_polygon_centroid( const vec2s* v, int count )
{
	float area = 0.0f;
	vec2s sum = { { 0.0f, 0.0f } };
	vec2s o = v[0];
	for ( int i = 1; i + 1 < count; ++i )
	{
		vec2s e1 = glms_vec2_sub( v[i], o );
		vec2s e2 = glms_vec2_sub( v[i + 1], o );
		float a = 0.5f * glms_vec2_cross( e1, e2 );
		sum.x += a * ( e1.x + e2.x ) / 3.0f;
		sum.y += a * ( e1.y + e2.y ) / 3.0f;
		area += a;
	}
	if ( area > 0.0f )
	{
		vec2s r = { { o.x + sum.x / area, o.y + sum.y / area } };
		return r;
	}
	return o;
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
	int bad = -1;
	for ( int i = 0; i < n && bad < 0; ++i )
	{
		if ( !( kcc_turn( p->vertices[i > 0 ? i - 1 : n - 1], p->vertices[i], p->vertices[i + 1 < n ? i + 1 : 0] ) > 0.0 ) )
		{
			bad = i;
		}
	}
	if ( bad < 0 )
	{
		return;
	}
	vec2s original[KCC_MAX_POLYGON_VERTICES];
	int original_count = n;
	memcpy( original, p->vertices, (size_t)n * sizeof( vec2s ) );
	while ( bad >= 0 && n >= 3 )
	{
		for ( int i = bad; i + 1 < n; ++i )
		{
			p->vertices[i] = p->vertices[i + 1];
		}
		n -= 1;
		bad = -1;
		for ( int i = 0; i < n && n >= 3 && bad < 0; ++i )
		{
			if ( !( kcc_turn( p->vertices[i > 0 ? i - 1 : n - 1], p->vertices[i], p->vertices[i + 1 < n ? i + 1 : 0] ) > 0.0 ) )
			{
				bad = i;
			}
		}
	}
	if ( n >= 3 )
	{
		p->count = n;
		for ( int i = 0; i < n; ++i )
		{
			p->normals[i] = kcc_edge_normal( p->vertices[i], p->vertices[i + 1 < n ? i + 1 : 0] );
		}
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

static void kcc_convert_polygon( const kcc_controller* c, const cpPolyShape* poly, int piece, kcc_shape* out )
{
	int count = poly->count;
	float radius = kcc_bridge_to_float( poly->r );
	const struct cpSplittingPlane* planes = poly->planes; // [0, count): world space; plane i holds vertex i
	if ( count < 3 )
	{
		// A degenerate Chipmunk polygon (a segment or a point) is a capsule.
		out->type = KCC_SHAPE_CAPSULE;
		out->capsule.a = kcc_bridge_relative( planes[0].v0, c->origin );
		out->capsule.b = kcc_bridge_relative( planes[count - 1].v0, c->origin );
		out->capsule.radius = radius;
		return;
	}
	kcc_polygon* p = &out->polygon;
	out->type = KCC_SHAPE_POLYGON;
	p->radius = radius;
	if ( count <= KCC_MAX_POLYGON_VERTICES )
	{
		// Chipmunk's vertices are a counter-clockwise convex hull with unit edge normals (its normal i belongs to
		// the edge ending at vertex i; ours to the edge starting there), unless the game built a degenerate one.
		for ( int i = 0; i < count; ++i )
		{
			p->vertices[i] = kcc_bridge_relative( planes[i].v0, c->origin );
			p->normals[i] = kcc_bridge_from_cpv( planes[i + 1 < count ? i + 1 : 0].n );
		}
		p->count = count;
	}
	else
	{
		int step = KCC_MAX_POLYGON_VERTICES - 2;
		int first = 1 + piece * step;
		int last = first + KCC_MAX_POLYGON_VERTICES - 2;
		if ( last > count - 1 )
		{
			last = count - 1;
		}
		int n = 0;
		p->vertices[n++] = kcc_bridge_relative( planes[0].v0, c->origin );
		for ( int i = first; i <= last && n < KCC_MAX_POLYGON_VERTICES; ++i )
		{
			p->vertices[n++] = kcc_bridge_relative( planes[i].v0, c->origin );
		}
		p->count = n;
		for ( int i = 0; i < n; ++i )
		{
			p->normals[i] = kcc_edge_normal( p->vertices[i], p->vertices[i + 1 < n ? i + 1 : 0] );
		}
	}
	kcc_clean_polygon( out );
	if ( out->type == KCC_SHAPE_POLYGON )
	{
		p->centroid = kcc_polygon_centroid( p->vertices, p->count );
	}
}

void kcc_world_convert( const kcc_controller* c, kcc_candidate* candidate )
{
	const cpShape* shape = candidate->shape;
	kcc_shape* out = &candidate->core;
	// Set here, with the core: every cast and push-out looks at a candidate only once it is converted.
	candidate->one_way = ( shape->filter.categories & c->def.one_way_categories ) != 0;
	switch ( shape->klass->type )
	{
		case CP_CIRCLE_SHAPE:
		{
			const cpCircleShape* circle = (const cpCircleShape*)shape;
			out->type = KCC_SHAPE_CIRCLE;
			out->circle.center = kcc_bridge_relative( circle->tc, c->origin );
			out->circle.radius = kcc_bridge_to_float( circle->r );
			break;
		}
		case CP_SEGMENT_SHAPE:
		{
			const cpSegmentShape* segment = (const cpSegmentShape*)shape;
			out->type = KCC_SHAPE_CAPSULE;
			out->capsule.a = kcc_bridge_relative( segment->ta, c->origin );
			out->capsule.b = kcc_bridge_relative( segment->tb, c->origin );
			out->capsule.radius = kcc_bridge_to_float( segment->r );
			break;
		}
		case CP_POLY_SHAPE:
			kcc_convert_polygon( c, (const cpPolyShape*)shape, candidate->piece, out );
			break;
		default:
			out->type = KCC_SHAPE_INVALID;
			break;
	}
	candidate->converted = true;
}

const cpBody* kcc_world_shape_body( const cpShape* shape )
{
	return shape->body;
}

const cpBody* kcc_world_kinematic_body( const cpShape* shape )
{
	// cpBodyGetType's test, inline (it runs after every move on a floor): static bodies sleep forever, kinematic
	// ones have infinite mass.
	const cpBody* body = shape->body;
	return body != NULL && body->m == INFINITY && body->sleeping.idleTime != INFINITY ? body : NULL;
}

const cpBody* kcc_world_find_body( const kcc_controller* c, const cpBody* body )
{
	// Kinematic bodies live in the space's dynamic body array (Chipmunk 7); sleeping ones do not move.
	const cpArray* bodies = c->space->dynamicBodies;
	for ( int i = 0; i < bodies->num; ++i )
	{
		if ( bodies->arr[i] == body )
		{
			return bodies->arr[i];
		}
	}
	return NULL;
}

void kcc_world_body_pose( const cpBody* body, cpVect* position, double* angle )
{
	*position = body->p;
	*angle = body->a;
}

// cpBodySetPosition as Chipmunk computes it (position and transform for the body's angle and centre of gravity),
// without its debug build's sanity checks (about 270 instructions per call on Debian's build). The body is the
// controller's own kinematic body: there is nothing to activate.
static void kcc_world_place_body( cpBody* body, cpVect position )
{
	// The controller never turns its body: skip the sine and cosine for angle 0.
	cpVect rot = body->a == 0.0 ? cpv( 1.0, 0.0 ) : cpvforangle( body->a );
	cpVect cog = body->cog;
	cpVect offset = cpv( cog.x * rot.x - cog.y * rot.y, cog.x * rot.y + cog.y * rot.x );
	body->p = cpvadd( offset, position );
	body->transform = cpTransformNewTranspose( rot.x, -rot.y, body->p.x - offset.x, rot.y, rot.x, body->p.y - offset.y );
}

// Reindexing a shape in Chipmunk's spatial hash removes it from every cell and inserts it again (and leaves orphan
// entries that later queries clean up): about 570 instructions, 12% of a gauntlet move. The controller indexes its
// shape with a bounding box fattened by index_margin and reindexes only when the shape's real box leaves it (or
// when cpSpaceStep rehashed the index since: space->stamp changed). The shape's own bb stays exact, and Chipmunk's
// queries test it after the cell lookup, so every query still sees exactly the shape.
void kcc_world_sync_body( kcc_controller* c )
{
	kcc_world_place_body( c->body, kcc_bridge_to_cpv( c->position ) );
	cpSpace* space = c->space;
	cpShape* shape = c->shape;
	cpBB bb = cpShapeUpdate( shape, c->body->transform );
	if ( space->locked != 0 || c->index_margin <= 0.0f )
	{
		cpSpaceReindexShape( space, shape ); // asserts (locked) with Chipmunk's own message, or the plain path
		return;
	}
	if ( c->indexed && c->indexed_stamp == space->stamp && cpBBContainsBB( c->indexed_bb, bb ) )
	{
		return;
	}
	cpFloat m = kcc_bridge_to_double( c->index_margin );
	cpBB fat = cpBBNew( bb.l - m, bb.b - m, bb.r + m, bb.t + m );
	shape->bb = fat;
	cpSpatialIndexReindexObject( space->dynamicShapes, shape, shape->hashid );
	shape->bb = bb;
	c->indexed_bb = fat;
	c->indexed_stamp = space->stamp;
	c->indexed = true;
}
