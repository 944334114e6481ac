// SPDX-License-Identifier: MIT
// Making and validating shapes, convex hulls, transforms, bounds and point containment.
#include "internal.h"

#include <float.h>
#include <string.h>

#define KCC_PI_D 3.14159265358979323846

// Hull points closer than this fraction of the point cloud's extent are duplicates, and corners closer than this
// to the line through their neighbours are collinear. Float coordinates carry about 1.2e-7 relative precision.
#define KCC_HULL_RELATIVE_TOLERANCE 1.0e-6

static kcc_shape kcc_invalid_shape( void )
{
	kcc_shape s;
	memset( &s, 0, sizeof( s ) );
	s.type = KCC_SHAPE_INVALID;
	return s;
}

static kcc_shape kcc_shape_of_type( kcc_shape_type type )
{
	kcc_shape s;
	// Zeroed so unused union bytes and polygon slots are deterministic (shapes are compared and hashed by tests).
	memset( &s, 0, sizeof( s ) );
	s.type = type;
	return s;
}

static bool kcc_is_unit( vec2s v )
{
	float ll = v.x * v.x + v.y * v.y;
	return fabsf( ll - 1.0f ) <= KCC_UNIT_TOLERANCE;
}

static bool kcc_is_valid_radius( float r )
{
	return kcc_is_valid_float( r ) && r >= 0.0f;
}

// Rotates v by the rotation (cos, sin).
static vec2s kcc_rotate( vec2s rotation, vec2s v )
{
	return kcc_v2( rotation.x * v.x - rotation.y * v.y, rotation.y * v.x + rotation.x * v.y );
}

static vec2s kcc_transform_point( vec2s rotation, vec2s translation, vec2s v )
{
	vec2s r = kcc_rotate( rotation, v );
	return kcc_v2( r.x + translation.x, r.y + translation.y );
}

// ---------------------------------------------------------------------------------------------------------------
// Making shapes

kcc_shape kcc_make_circle( vec2s center, float radius )
{
	KCC_ASSERT( kcc_is_valid_vec2( center ), "kcc_make_circle: center is not finite" );
	KCC_ASSERT( kcc_is_valid_float( radius ), "kcc_make_circle: radius is not finite" );
	KCC_ASSERT( !( radius < 0.0f ), "kcc_make_circle: radius is negative" );
	if ( kcc_is_valid_vec2( center ) == false || kcc_is_valid_radius( radius ) == false )
	{
		return kcc_invalid_shape();
	}
	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_CIRCLE );
	s.circle.center = center;
	s.circle.radius = radius;
	return s;
}

kcc_shape kcc_make_capsule( vec2s a, vec2s b, float radius )
{
	KCC_ASSERT( kcc_is_valid_vec2( a ) && kcc_is_valid_vec2( b ), "kcc_make_capsule: end point is not finite" );
	KCC_ASSERT( kcc_is_valid_float( radius ), "kcc_make_capsule: radius is not finite" );
	KCC_ASSERT( !( radius < 0.0f ), "kcc_make_capsule: radius is negative" );
	if ( kcc_is_valid_vec2( a ) == false || kcc_is_valid_vec2( b ) == false || kcc_is_valid_radius( radius ) == false )
	{
		return kcc_invalid_shape();
	}
	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_CAPSULE );
	s.capsule.a = a;
	s.capsule.b = b;
	s.capsule.radius = radius;
	return s;
}

kcc_shape kcc_make_aabb( vec2s min, vec2s max )
{
	bool finite = kcc_is_valid_vec2( min ) && kcc_is_valid_vec2( max );
	KCC_ASSERT( finite, "kcc_make_aabb: corner is not finite" );
	KCC_ASSERT( !( min.x > max.x || min.y > max.y ), "kcc_make_aabb: min is greater than max" );
	if ( finite == false || min.x > max.x || min.y > max.y )
	{
		return kcc_invalid_shape();
	}
	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_AABB );
	s.aabb.min = min;
	s.aabb.max = max;
	return s;
}

kcc_shape kcc_make_rect( float x, float y, float w, float h )
{
	bool finite = kcc_is_valid_float( x ) && kcc_is_valid_float( y ) && kcc_is_valid_float( w ) &&
				  kcc_is_valid_float( h ) && kcc_is_valid_float( x + w ) && kcc_is_valid_float( y + h );
	KCC_ASSERT( finite, "kcc_make_rect: position or size is not finite" );
	KCC_ASSERT( !( w < 0.0f || h < 0.0f ), "kcc_make_rect: size is negative" );
	if ( finite == false || w < 0.0f || h < 0.0f )
	{
		return kcc_invalid_shape();
	}
	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_AABB );
	s.aabb.min = kcc_v2( x, y );
	s.aabb.max = kcc_v2( x + w, y + h );
	return s;
}

kcc_shape kcc_make_obb( vec2s center, vec2s half_extents, float angle )
{
	bool finite = kcc_is_valid_vec2( center ) && kcc_is_valid_vec2( half_extents ) && kcc_is_valid_float( angle );
	KCC_ASSERT( finite, "kcc_make_obb: center, half extents or angle is not finite" );
	KCC_ASSERT( !( half_extents.x < 0.0f || half_extents.y < 0.0f ), "kcc_make_obb: half extents are negative" );
	if ( finite == false || half_extents.x < 0.0f || half_extents.y < 0.0f )
	{
		return kcc_invalid_shape();
	}
	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_OBB );
	s.obb.center = center;
	s.obb.half_extents = half_extents;
	s.obb.angle = angle;
	s.obb.rotation = kcc_v2( cosf( angle ), sinf( angle ) );
	return s;
}

// Fills normals and the area centroid of a counter-clockwise polygon whose vertices are set. Double precision
// keeps the normals unit and finite for tiny or thin polygons. False when the area is not positive.
static bool kcc_finish_polygon( kcc_polygon* p )
{
	int n = p->count;
	for ( int i = 0; i < n; ++i )
	{
		vec2s a = p->vertices[i], b = p->vertices[i + 1 < n ? i + 1 : 0];
		double ex = (double)b.x - (double)a.x, ey = (double)b.y - (double)a.y;
		double length = sqrt( ex * ex + ey * ey );
		if ( !( length > 0.0 ) )
		{
			return false;
		}
		p->normals[i] = kcc_v2( (float)( ey / length ), (float)( -ex / length ) );
	}

	// Triangle fan from vertex 0: relative coordinates keep the centroid accurate far from the origin.
	double ox = p->vertices[0].x, oy = p->vertices[0].y;
	double area2 = 0.0, cx = 0.0, cy = 0.0;
	for ( int i = 1; i + 1 < n; ++i )
	{
		double ax = p->vertices[i].x - ox, ay = p->vertices[i].y - oy;
		double bx = p->vertices[i + 1].x - ox, by = p->vertices[i + 1].y - oy;
		double cross = ax * by - ay * bx;
		area2 += cross;
		cx += cross * ( ax + bx );
		cy += cross * ( ay + by );
	}
	if ( !( area2 > 0.0 ) )
	{
		return false;
	}
	p->centroid = kcc_v2( (float)( ox + cx / ( 3.0 * area2 ) ), (float)( oy + cy / ( 3.0 * area2 ) ) );
	return true;
}

static double kcc_distance_squared_d( vec2s a, vec2s b )
{
	double dx = (double)b.x - (double)a.x, dy = (double)b.y - (double)a.y;
	return dx * dx + dy * dy;
}

// Gift wrapping (Jarvis march) straight over the input: O(n * h), no scratch memory beyond the hull itself.
// Writes the hull indices counter-clockwise and returns their count, 0 for a degenerate cloud, or -1 when the hull
// has more than KCC_MAX_POLYGON_VERTICES corners.
static int kcc_gift_wrap( const vec2s* points, int count, double tolerance, int* hull )
{
	// Room for one extra entry: a start corner found collinear only when the wrap closes is dropped then.
	enum
	{
		capacity = KCC_MAX_POLYGON_VERTICES + 2
	};
	double tolerance_squared = tolerance * tolerance;

	// The lexicographically smallest point (min x, then min y) is always a corner of the hull.
	int start = 0;
	for ( int i = 1; i < count; ++i )
	{
		if ( points[i].x < points[start].x || ( points[i].x == points[start].x && points[i].y < points[start].y ) )
		{
			start = i;
		}
	}

	int hull_count = 0;
	int current = start;
	for ( ;; )
	{
		hull[hull_count++] = current;
		vec2s p = points[current];

		// Next corner: the candidate with every other point on its left; collinear ties go to the farthest.
		int next = -1;
		double next_length_squared = 0.0;
		for ( int i = 0; i < count; ++i )
		{
			double length_squared = kcc_distance_squared_d( p, points[i] );
			if ( length_squared <= tolerance_squared )
			{
				continue; // a duplicate of the current corner
			}
			if ( next < 0 )
			{
				next = i;
				next_length_squared = length_squared;
				continue;
			}
			vec2s q = points[next];
			double qx = (double)q.x - (double)p.x, qy = (double)q.y - (double)p.y;
			double rx = (double)points[i].x - (double)p.x, ry = (double)points[i].y - (double)p.y;
			double cross = qx * ry - qy * rx;
			// cross / |q - p| is the distance of point i from the line p -> next (negative: on the right)
			double band = tolerance * sqrt( next_length_squared );
			bool ahead = qx * rx + qy * ry > 0.0;
			if ( cross < -band || ( cross <= band && ahead && length_squared > next_length_squared ) )
			{
				next = i;
				next_length_squared = length_squared;
			}
		}
		if ( next < 0 )
		{
			return 0; // every point is a duplicate of one
		}

		// Closed when the wrap comes back to a corner it already has (normally the start; a later one when the
		// start turned out to lie on the line between its neighbours).
		for ( int k = 0; k < hull_count; ++k )
		{
			if ( kcc_distance_squared_d( points[hull[k]], points[next] ) <= tolerance_squared )
			{
				int cycle = hull_count - k;
				if ( cycle > KCC_MAX_POLYGON_VERTICES )
				{
					return -1;
				}
				memmove( hull, hull + k, (size_t)cycle * sizeof( int ) );
				return cycle;
			}
		}
		if ( hull_count == capacity )
		{
			return -1;
		}
		current = next;
	}
}

// Drops corners within tolerance of the line through their neighbours (the wrap can leave one where a collinear
// run met the start point). Returns the new count.
static int kcc_remove_collinear( vec2s* v, int n, double tolerance )
{
	bool removed = true;
	while ( removed && n >= 3 )
	{
		removed = false;
		for ( int i = 0; i < n; ++i )
		{
			vec2s a = v[( i + n - 1 ) % n], b = v[i], c = v[( i + 1 ) % n];
			double ex = (double)c.x - (double)a.x, ey = (double)c.y - (double)a.y;
			double bx = (double)b.x - (double)a.x, by = (double)b.y - (double)a.y;
			// a convex corner of a counter-clockwise polygon sticks out to the right of a -> c: bulge > 0
			double bulge = ey * bx - ex * by;
			if ( bulge <= tolerance * sqrt( ex * ex + ey * ey ) )
			{
				memmove( v + i, v + i + 1, (size_t)( n - i - 1 ) * sizeof( vec2s ) );
				n -= 1;
				removed = true;
				break;
			}
		}
	}
	return n;
}

kcc_shape kcc_make_polygon( const vec2s* points, int count, float radius )
{
	KCC_ASSERT( points != NULL || count <= 0, "kcc_make_polygon: points is NULL" );
	KCC_ASSERT( kcc_is_valid_float( radius ), "kcc_make_polygon: radius is not finite" );
	KCC_ASSERT( !( radius < 0.0f ), "kcc_make_polygon: radius is negative" );
	if ( points == NULL || kcc_is_valid_radius( radius ) == false )
	{
		return kcc_invalid_shape();
	}

	bool finite = true;
	float min_x = FLT_MAX, min_y = FLT_MAX, max_x = -FLT_MAX, max_y = -FLT_MAX;
	for ( int i = 0; i < count; ++i )
	{
		finite = finite && kcc_is_valid_vec2( points[i] );
		min_x = fminf( min_x, points[i].x );
		min_y = fminf( min_y, points[i].y );
		max_x = fmaxf( max_x, points[i].x );
		max_y = fmaxf( max_y, points[i].y );
	}
	KCC_ASSERT( finite, "kcc_make_polygon: a point is not finite" );
	if ( finite == false )
	{
		return kcc_invalid_shape();
	}

	double extent = count > 0 ? fmax( (double)max_x - (double)min_x, (double)max_y - (double)min_y ) : 0.0;
	double tolerance = KCC_HULL_RELATIVE_TOLERANCE * extent;
	int hull[KCC_MAX_POLYGON_VERTICES + 2];
	int hull_count = count >= 3 && extent > 0.0 ? kcc_gift_wrap( points, count, tolerance, hull ) : 0;
	KCC_ASSERT( hull_count >= 0, "kcc_make_polygon: the hull has more than KCC_MAX_POLYGON_VERTICES vertices" );
	if ( hull_count < 0 )
	{
		return kcc_invalid_shape();
	}

	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_POLYGON );
	for ( int i = 0; i < hull_count; ++i )
	{
		s.polygon.vertices[i] = points[hull[i]];
	}
	hull_count = kcc_remove_collinear( s.polygon.vertices, hull_count, tolerance );
	s.polygon.count = hull_count;
	s.polygon.radius = radius;
	bool ok = hull_count >= 3 && kcc_finish_polygon( &s.polygon );
	KCC_ASSERT( ok, "kcc_make_polygon: fewer than 3 distinct non-collinear points" );
	if ( ok == false )
	{
		return kcc_invalid_shape();
	}
	// Unused slots stay zero so the struct is deterministic.
	for ( int i = hull_count; i < KCC_MAX_POLYGON_VERTICES; ++i )
	{
		s.polygon.vertices[i] = kcc_v2( 0.0f, 0.0f );
		s.polygon.normals[i] = kcc_v2( 0.0f, 0.0f );
	}
	return s;
}

kcc_shape kcc_make_box( vec2s half_extents, float radius )
{
	KCC_ASSERT( kcc_is_valid_vec2( half_extents ), "kcc_make_box: half extents are not finite" );
	KCC_ASSERT( !( half_extents.x <= 0.0f || half_extents.y <= 0.0f ), "kcc_make_box: half extents are not positive" );
	KCC_ASSERT( kcc_is_valid_float( radius ), "kcc_make_box: radius is not finite" );
	KCC_ASSERT( !( radius < 0.0f ), "kcc_make_box: radius is negative" );
	// A zero extent would make a segment: the polygon kind needs 3 non-collinear corners.
	if ( kcc_is_valid_vec2( half_extents ) == false || !( half_extents.x > 0.0f && half_extents.y > 0.0f ) ||
		 kcc_is_valid_radius( radius ) == false )
	{
		return kcc_invalid_shape();
	}
	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_POLYGON );
	float hx = half_extents.x, hy = half_extents.y;
	s.polygon.count = 4;
	s.polygon.vertices[0] = kcc_v2( -hx, -hy );
	s.polygon.vertices[1] = kcc_v2( hx, -hy );
	s.polygon.vertices[2] = kcc_v2( hx, hy );
	s.polygon.vertices[3] = kcc_v2( -hx, hy );
	s.polygon.normals[0] = kcc_v2( 0.0f, -1.0f );
	s.polygon.normals[1] = kcc_v2( 1.0f, 0.0f );
	s.polygon.normals[2] = kcc_v2( 0.0f, 1.0f );
	s.polygon.normals[3] = kcc_v2( -1.0f, 0.0f );
	s.polygon.centroid = kcc_v2( 0.0f, 0.0f );
	s.polygon.radius = radius;
	return s;
}

// (cos, sin) of half the opening. sin is clamped to >= 0 and the full disc gets exactly (-1, 0): sin of float pi
// is negative, which would put the point straight ahead of a full-disc sector outside it.
static vec2s kcc_sector_half_angle( float angle )
{
	double half = 0.5 * (double)angle;
	if ( half >= KCC_PI_D - KCC_FULL_ANGLE_SLACK )
	{
		return kcc_v2( -1.0f, 0.0f );
	}
	// The sine at least FLT_MIN: an angle so small that it rounds to 0 (or to a denormal that products flush away)
	// would let the half-angle test accept the ray behind the apex (across = c y - s x is 0 there when s x is);
	// with a normal sine it is positive for any point farther than ~1e-7 behind.
	float c = (float)cos( half ), s = (float)sin( half );
	return kcc_v2( c, s > FLT_MIN ? s : FLT_MIN );
}

kcc_shape kcc_make_sector( vec2s apex, vec2s direction, float radius, float angle )
{
	bool finite = kcc_is_valid_vec2( apex ) && kcc_is_valid_vec2( direction ) && kcc_is_valid_float( radius ) &&
				  kcc_is_valid_float( angle );
	KCC_ASSERT( finite, "kcc_make_sector: apex, direction, radius or angle is not finite" );
	if ( finite == false )
	{
		return kcc_invalid_shape();
	}
	// Double precision: a tiny but nonzero direction must not underflow to zero length.
	double length = sqrt( (double)direction.x * direction.x + (double)direction.y * direction.y );
	KCC_ASSERT( length > 0.0, "kcc_make_sector: direction is zero" );
	KCC_ASSERT( radius > 0.0f, "kcc_make_sector: radius is not positive" );
	bool angle_ok = angle > 0.0f && angle <= KCC_TWO_PI_F + KCC_FULL_ANGLE_SLACK;
	KCC_ASSERT( angle_ok, "kcc_make_sector: angle is outside (0, 2*pi]" );
	if ( !( length > 0.0 ) || !( radius > 0.0f ) || angle_ok == false )
	{
		return kcc_invalid_shape();
	}
	kcc_shape s = kcc_shape_of_type( KCC_SHAPE_SECTOR );
	s.sector.apex = apex;
	s.sector.direction = kcc_v2( (float)( direction.x / length ), (float)( direction.y / length ) );
	s.sector.radius = radius;
	s.sector.angle = angle > KCC_TWO_PI_F ? KCC_TWO_PI_F : angle;
	s.sector.half_angle = kcc_sector_half_angle( s.sector.angle );
	return s;
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

// The one rule for polygons, decided in double precision corner by corner (the differences and products of float
// coordinates are exact or nearly so there, so a corner's turn is never misjudged by rounding).
static bool kcc_polygon_is_valid( const kcc_polygon* p )
{
	if ( p->count < 3 || p->count > KCC_MAX_POLYGON_VERTICES || kcc_is_valid_radius( p->radius ) == false ||
		 kcc_is_valid_vec2( p->centroid ) == false )
	{
		return false;
	}
	int n = p->count;
	// Left turns at every corner are not enough: a pentagram turns left everywhere but winds twice. Count how often
	// the edge direction passes the +x direction (from the lower half-turn to the upper one): once for a convex
	// polygon, since every turn is below pi.
	int windings = 0;
	// Edge i is e (vertex i to i + 1), the next edge f; each f is the next corner's e.
	double ex = (double)p->vertices[1].x - p->vertices[0].x, ey = (double)p->vertices[1].y - p->vertices[0].y;
	bool e_lower = ey < 0.0 || ( ey == 0.0 && ex < 0.0 );
	for ( int i = 0; i < n; ++i )
	{
		vec2s a = p->vertices[i], b = p->vertices[i + 1 < n ? i + 1 : 0], c = p->vertices[i + 2 < n ? i + 2 : i + 2 - n];
		vec2s nrm = p->normals[i];
		if ( kcc_is_valid_vec2( a ) == false || kcc_is_valid_vec2( nrm ) == false || kcc_is_unit( nrm ) == false )
		{
			return false;
		}
		double fx = (double)c.x - b.x, fy = (double)c.y - b.y;
		double ee = ex * ex + ey * ey;
		// strictly convex and counter-clockwise at every corner, no zero-length edge
		if ( !( ex * fy - ey * fx > 0.0 ) || !( ee > 0.0 ) )
		{
			return false;
		}
		// the normal is the edge turned clockwise: along (ey, -ex), not along the edge. |n . e| / |e| <= tolerance
		// compared squared, and the sign of n x e: no square root or division.
		double along = nrm.x * ex + nrm.y * ey;
		double outward = nrm.x * ey - nrm.y * ex;
		double tolerance = KCC_UNIT_TOLERANCE;
		if ( along * along > tolerance * tolerance * ee || !( outward > 0.0 ) )
		{
			return false;
		}
		bool f_lower = fy < 0.0 || ( fy == 0.0 && fx < 0.0 );
		windings += ( e_lower && f_lower == false ) ? 1 : 0;
		ex = fx;
		ey = fy;
		e_lower = f_lower;
	}
	return windings == 1;
}

bool kcc_shape_is_valid( const kcc_shape* s )
{
	if ( s == NULL )
	{
		return false;
	}
	if ( s->type == KCC_SHAPE_POLYGON ) // the kind with the most to check, tested before the switch
	{
		return kcc_polygon_is_valid( &s->polygon );
	}
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			return kcc_is_valid_vec2( s->circle.center ) && kcc_is_valid_radius( s->circle.radius );
		case KCC_SHAPE_CAPSULE:
			return kcc_is_valid_vec2( s->capsule.a ) && kcc_is_valid_vec2( s->capsule.b ) &&
				   kcc_is_valid_radius( s->capsule.radius );
		case KCC_SHAPE_AABB:
			return kcc_is_valid_vec2( s->aabb.min ) && kcc_is_valid_vec2( s->aabb.max ) &&
				   s->aabb.min.x <= s->aabb.max.x && s->aabb.min.y <= s->aabb.max.y;
		case KCC_SHAPE_OBB:
			return kcc_is_valid_vec2( s->obb.center ) && kcc_is_valid_vec2( s->obb.half_extents ) &&
				   s->obb.half_extents.x >= 0.0f && s->obb.half_extents.y >= 0.0f &&
				   kcc_is_valid_float( s->obb.angle ) && kcc_is_valid_vec2( s->obb.rotation ) &&
				   kcc_is_unit( s->obb.rotation );
		case KCC_SHAPE_SECTOR:
		{
			const kcc_sector* c = &s->sector;
			return kcc_is_valid_vec2( c->apex ) && kcc_is_valid_vec2( c->direction ) && kcc_is_unit( c->direction ) &&
				   kcc_is_valid_float( c->radius ) && c->radius > 0.0f && kcc_is_valid_float( c->angle ) &&
				   c->angle > 0.0f && c->angle <= KCC_TWO_PI_F + KCC_FULL_ANGLE_SLACK &&
				   kcc_is_valid_vec2( c->half_angle ) && kcc_is_unit( c->half_angle ) &&
				   ( c->half_angle.y >= FLT_MIN || ( c->half_angle.x < 0.0f && c->half_angle.y >= 0.0f ) );
		}
		default:
			return false;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Transforms

// A transformed shape is rounded to float again. A polygon corner that was barely convex can turn straight or
// slightly concave in that rounding, so such a polygon is rebuilt as the hull of its moved vertices (the exact
// moved shape up to that rounding). Anything else that rounding broke (overflow) is invalid.
static kcc_shape kcc_valid_or_rebuilt( const kcc_shape* out )
{
	if ( kcc_shape_is_valid( out ) )
	{
		return *out;
	}
	if ( out->type == KCC_SHAPE_POLYGON && out->polygon.count >= 3 && out->polygon.count <= KCC_MAX_POLYGON_VERTICES )
	{
		return kcc_make_polygon( out->polygon.vertices, out->polygon.count, out->polygon.radius );
	}
	return kcc_invalid_shape();
}

kcc_shape kcc_shape_transform( const kcc_shape* s, vec2s translation, float angle )
{
	bool valid = kcc_shape_is_valid( s );
	KCC_ASSERT( valid, "kcc_shape_transform: shape is invalid" );
	bool finite = kcc_is_valid_vec2( translation ) && kcc_is_valid_float( angle );
	KCC_ASSERT( finite, "kcc_shape_transform: translation or angle is not finite" );
	if ( valid == false || finite == false )
	{
		return kcc_invalid_shape();
	}
	if ( angle == 0.0f )
	{
		return kcc_shape_translate( s, translation );
	}

	vec2s q = kcc_v2( cosf( angle ), sinf( angle ) );
	kcc_shape out = *s;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			out.circle.center = kcc_transform_point( q, translation, s->circle.center );
			break;
		case KCC_SHAPE_CAPSULE:
			out.capsule.a = kcc_transform_point( q, translation, s->capsule.a );
			out.capsule.b = kcc_transform_point( q, translation, s->capsule.b );
			break;
		case KCC_SHAPE_AABB:
		{
			vec2s center = kcc_v2( 0.5f * ( s->aabb.min.x + s->aabb.max.x ), 0.5f * ( s->aabb.min.y + s->aabb.max.y ) );
			vec2s half = kcc_v2( 0.5f * ( s->aabb.max.x - s->aabb.min.x ), 0.5f * ( s->aabb.max.y - s->aabb.min.y ) );
			out = kcc_shape_of_type( KCC_SHAPE_OBB );
			out.obb.center = kcc_transform_point( q, translation, center );
			out.obb.half_extents = half;
			out.obb.angle = angle;
			out.obb.rotation = q;
			break;
		}
		case KCC_SHAPE_OBB:
			out.obb.center = kcc_transform_point( q, translation, s->obb.center );
			out.obb.angle = s->obb.angle + angle;
			out.obb.rotation = kcc_v2( cosf( out.obb.angle ), sinf( out.obb.angle ) );
			break;
		case KCC_SHAPE_POLYGON:
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				out.polygon.vertices[i] = kcc_transform_point( q, translation, s->polygon.vertices[i] );
				out.polygon.normals[i] = kcc_rotate( q, s->polygon.normals[i] );
			}
			out.polygon.centroid = kcc_transform_point( q, translation, s->polygon.centroid );
			break;
		case KCC_SHAPE_SECTOR:
		{
			out.sector.apex = kcc_transform_point( q, translation, s->sector.apex );
			vec2s d = kcc_rotate( q, s->sector.direction );
			double length = sqrt( (double)d.x * d.x + (double)d.y * d.y );
			out.sector.direction = kcc_v2( (float)( d.x / length ), (float)( d.y / length ) );
			break;
		}
		default:
			return kcc_invalid_shape();
	}
	return kcc_valid_or_rebuilt( &out );
}

kcc_shape kcc_shape_translate( const kcc_shape* s, vec2s translation )
{
	bool valid = kcc_shape_is_valid( s );
	KCC_ASSERT( valid, "kcc_shape_translate: shape is invalid" );
	KCC_ASSERT( kcc_is_valid_vec2( translation ), "kcc_shape_translate: translation is not finite" );
	if ( valid == false || kcc_is_valid_vec2( translation ) == false )
	{
		return kcc_invalid_shape();
	}
	vec2s t = translation;
	kcc_shape out = *s;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			out.circle.center = glms_vec2_add( s->circle.center, t );
			break;
		case KCC_SHAPE_CAPSULE:
			out.capsule.a = glms_vec2_add( s->capsule.a, t );
			out.capsule.b = glms_vec2_add( s->capsule.b, t );
			break;
		case KCC_SHAPE_AABB:
			out.aabb.min = glms_vec2_add( s->aabb.min, t );
			out.aabb.max = glms_vec2_add( s->aabb.max, t );
			break;
		case KCC_SHAPE_OBB:
			out.obb.center = glms_vec2_add( s->obb.center, t );
			break;
		case KCC_SHAPE_POLYGON:
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				out.polygon.vertices[i] = glms_vec2_add( s->polygon.vertices[i], t );
			}
			out.polygon.centroid = glms_vec2_add( s->polygon.centroid, t );
			break;
		case KCC_SHAPE_SECTOR:
			out.sector.apex = glms_vec2_add( s->sector.apex, t );
			break;
		default:
			return kcc_invalid_shape();
	}
	return kcc_valid_or_rebuilt( &out );
}

bool kcc_shape_is_convex( const kcc_shape* s )
{
	if ( kcc_shape_is_valid( s ) == false )
	{
		return false;
	}
	// Up to a half disc (float pi included) a sector is convex.
	return s->type != KCC_SHAPE_SECTOR || s->sector.angle <= KCC_PI_F;
}

// ---------------------------------------------------------------------------------------------------------------
// Bounds and containment

kcc_aabb kcc_shape_bounds( const kcc_shape* s )
{
	kcc_aabb box = { { { FLT_MAX, FLT_MAX } }, { { -FLT_MAX, -FLT_MAX } } };
	bool valid = kcc_shape_is_valid( s );
	KCC_ASSERT( valid, "kcc_shape_bounds: shape is invalid" );
	if ( valid == false )
	{
		return box;
	}
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
		{
			kcc_circle c = s->circle;
			box.min = kcc_v2( c.center.x - c.radius, c.center.y - c.radius );
			box.max = kcc_v2( c.center.x + c.radius, c.center.y + c.radius );
			break;
		}
		case KCC_SHAPE_CAPSULE:
		{
			kcc_capsule c = s->capsule;
			box.min = kcc_v2( fminf( c.a.x, c.b.x ) - c.radius, fminf( c.a.y, c.b.y ) - c.radius );
			box.max = kcc_v2( fmaxf( c.a.x, c.b.x ) + c.radius, fmaxf( c.a.y, c.b.y ) + c.radius );
			break;
		}
		case KCC_SHAPE_AABB:
			box = s->aabb;
			break;
		case KCC_SHAPE_OBB:
		{
			kcc_obb b = s->obb;
			float ex = fabsf( b.rotation.x ) * b.half_extents.x + fabsf( b.rotation.y ) * b.half_extents.y;
			float ey = fabsf( b.rotation.y ) * b.half_extents.x + fabsf( b.rotation.x ) * b.half_extents.y;
			box.min = kcc_v2( b.center.x - ex, b.center.y - ey );
			box.max = kcc_v2( b.center.x + ex, b.center.y + ey );
			break;
		}
		case KCC_SHAPE_POLYGON:
		{
			const kcc_polygon* p = &s->polygon;
			for ( int i = 0; i < p->count; ++i )
			{
				box.min = glms_vec2_minv( box.min, p->vertices[i] );
				box.max = glms_vec2_maxv( box.max, p->vertices[i] );
			}
			box.min = kcc_v2( box.min.x - p->radius, box.min.y - p->radius );
			box.max = kcc_v2( box.max.x + p->radius, box.max.y + p->radius );
			break;
		}
		case KCC_SHAPE_SECTOR:
		{
			// The apex, both arc ends, and each axis-extreme point of the full circle that lies in the opening.
			const kcc_sector* c = &s->sector;
			vec2s d = c->direction, h = c->half_angle;
			float r = c->radius;
			vec2s left = kcc_v2( d.x * h.x - d.y * h.y, d.y * h.x + d.x * h.y );
			vec2s right = kcc_v2( d.x * h.x + d.y * h.y, d.y * h.x - d.x * h.y );
			vec2s points[7] = {
				c->apex,
				kcc_v2( c->apex.x + r * left.x, c->apex.y + r * left.y ),
				kcc_v2( c->apex.x + r * right.x, c->apex.y + r * right.y ),
			};
			int n = 3;
			// an axis direction u is in the opening when the angle between u and d is at most half: u.d >= cos(half)
			if ( d.x >= h.x )
			{
				points[n++] = kcc_v2( c->apex.x + r, c->apex.y );
			}
			if ( -d.x >= h.x )
			{
				points[n++] = kcc_v2( c->apex.x - r, c->apex.y );
			}
			if ( d.y >= h.x )
			{
				points[n++] = kcc_v2( c->apex.x, c->apex.y + r );
			}
			if ( -d.y >= h.x )
			{
				points[n++] = kcc_v2( c->apex.x, c->apex.y - r );
			}
			for ( int i = 0; i < n; ++i )
			{
				box.min = glms_vec2_minv( box.min, points[i] );
				box.max = glms_vec2_maxv( box.max, points[i] );
			}
			break;
		}
		default:
			break;
	}
	return box;
}

// Inside a radius-0 convex polygon by edge cross products in double: exact for points on an edge (differences of
// floats and their products are exact in double, so only the final subtraction rounds).
static bool kcc_core_polygon_contains( const kcc_polygon* p, vec2s q )
{
	int n = p->count;
	for ( int i = 0; i < n; ++i )
	{
		vec2s a = p->vertices[i], b = p->vertices[i + 1 < n ? i + 1 : 0];
		double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
		double dx = (double)q.x - a.x, dy = (double)q.y - a.y;
		if ( ex * dy - ey * dx < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Capsule and sector containment in double, as for circles: with a huge valid radius the float squares overflow and
// Inf <= Inf would say "inside" for a point far outside the bounds. Same steps as the typed tests.
static bool kcc_capsule_contains_point_double( const kcc_capsule* c, vec2s p )
{
	double ex = (double)c->b.x - c->a.x, ey = (double)c->b.y - c->a.y;
	double px = (double)p.x - c->a.x, py = (double)p.y - c->a.y;
	double ee = ex * ex + ey * ey;
	double n = px * ex + py * ey;
	n = n > 0.0 ? n : 0.0;
	n = n < ee ? n : ee;
	double t = ee > 0.0 ? n / ee : 0.0;
	double dx = px - t * ex, dy = py - t * ey;
	double r = c->radius;
	return dx * dx + dy * dy <= r * r;
}

static bool kcc_sector_contains_point_double( const kcc_sector* s, vec2s p )
{
	double dx = (double)p.x - s->apex.x, dy = (double)p.y - s->apex.y;
	double x = s->direction.x * dx + s->direction.y * dy;
	double y = fabs( s->direction.x * dy - s->direction.y * dx );
	double c = s->half_angle.x, sn = s->half_angle.y, radius = s->radius;
	double across = c * y - sn * x; // > 0: beyond the upper edge (mirrored), outside the opening
	double along = c * x + sn * y;
	double clamped = along > 0.0 ? ( along < radius ? along : radius ) : 0.0;
	double over = along - clamped;
	bool inside_angle = across <= 0.0;
	bool near_apex = x * x + y * y <= radius * radius;
	bool on_edge = across * across + over * over <= 0.0;
	return ( inside_angle && near_apex ) || on_edge;
}

bool kcc_contains_point( const kcc_shape* s, vec2s p )
{
	bool valid = kcc_shape_is_valid( s );
	KCC_ASSERT( valid, "kcc_contains_point: shape is invalid" );
	KCC_ASSERT( kcc_is_valid_vec2( p ), "kcc_contains_point: point is not finite" );
	if ( valid == false || kcc_is_valid_vec2( p ) == false )
	{
		return false;
	}
	kcc_circle point = { p, 0.0f };
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
		{
			// in double: float squares overflow for huge valid circles (Inf <= Inf would say inside)
			double dx = (double)p.x - s->circle.center.x, dy = (double)p.y - s->circle.center.y;
			double r = s->circle.radius;
			return dx * dx + dy * dy <= r * r;
		}
		case KCC_SHAPE_CAPSULE:
			return kcc_capsule_contains_point_double( &s->capsule, p );
		case KCC_SHAPE_AABB:
			return s->aabb.min.x <= p.x && p.x <= s->aabb.max.x && s->aabb.min.y <= p.y && p.y <= s->aabb.max.y;
		case KCC_SHAPE_OBB:
			return kcc_circle_overlaps_obb( point, s->obb );
		case KCC_SHAPE_POLYGON:
			if ( s->polygon.radius == 0.0f )
			{
				return kcc_core_polygon_contains( &s->polygon, p );
			}
			return kcc_circle_overlaps_polygon( point, &s->polygon );
		case KCC_SHAPE_SECTOR:
			return kcc_sector_contains_point_double( &s->sector, p );
		default:
			return false;
	}
}
