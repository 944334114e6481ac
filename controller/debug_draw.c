// SPDX-License-Identifier: MIT
// Debug drawing of a character and its last move: shape, path, contacts with their normals and slide tangents,
// the wanted direction, the floor normal, flags and zone events (seed 004's colours: white hits, yellow motion,
// magenta tangents).
#include "chipmunk_bridge.h"
#include "kcc/controller.h"
#include "kcc/debug_draw.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

static void kcc_draw_text( const kcc_debug_draw* draw, vec2s p, const char* text, kcc_color color )
{
	if ( draw->draw_text != NULL )
	{
		draw->draw_text( p, text, color, draw->context );
	}
}

static void kcc_draw_line( const kcc_debug_draw* draw, vec2s a, vec2s b, kcc_color color )
{
	if ( draw->draw_segment != NULL )
	{
		draw->draw_segment( a, b, color, draw->context );
	}
}

static vec2s kcc_unit_or_zero( vec2s v )
{
	float length = glms_vec2_norm( v );
	bool usable = length > FLT_MIN && kcc_is_valid_float( length );
	return usable ? glms_vec2_scale( v, 1.0f / length ) : kcc_v2( 0.0f, 0.0f );
}

// The point of the path travel units from its start (its end when the path is shorter).
static vec2s kcc_path_point( const kcc_move_result* r, int path_count, float travel )
{
	for ( int i = 0; i + 1 < path_count; ++i )
	{
		float length = glms_vec2_distance( r->path[i], r->path[i + 1] );
		if ( travel <= length && length > 0.0f )
		{
			return glms_vec2_lerp( r->path[i], r->path[i + 1], travel / length );
		}
		travel -= length;
	}
	return r->position;
}

// The point of the shape farthest along -normal (where it rests on a floor of that normal): the core's farthest
// corner, moved by the rounding radius.
static vec2s kcc_lowest_point( const kcc_shape* world, vec2s normal )
{
	kcc_shape core = *world;
	float radius = 0.0f;
	switch ( core.type )
	{
		case KCC_SHAPE_CIRCLE:
			radius = core.circle.radius;
			core.circle.radius = 0.0f;
			break;
		case KCC_SHAPE_CAPSULE:
			radius = core.capsule.radius;
			core.capsule.radius = 0.0f;
			break;
		case KCC_SHAPE_POLYGON:
			radius = core.polygon.radius;
			core.polygon.radius = 0.0f;
			break;
		default:
			break;
	}
	vec2s corners[KCC_MAX_POLYGON_VERTICES];
	int count = kcc_shape_outline( &core, 1.0f, corners, KCC_MAX_POLYGON_VERTICES );
	vec2s best = count > 0 ? corners[0] : kcc_v2( 0.0f, 0.0f );
	for ( int i = 1; i < count; ++i )
	{
		best = glms_vec2_dot( corners[i], normal ) < glms_vec2_dot( best, normal ) ? corners[i] : best;
	}
	return glms_vec2_muladds( normal, -radius, best );
}

// A count read from a result, clamped to its array (a result is plain data a caller may have filled).
static int kcc_clamp_count( int count, int capacity )
{
	return count < 0 ? 0 : ( count > capacity ? capacity : count );
}

static const char* kcc_shape_label( const kcc_debug_draw* draw, const void* shape )
{
	const char* name = draw->name_of != NULL ? draw->name_of( shape, draw->context ) : NULL;
	return name != NULL ? name : "zone";
}

// The flags as labels above the shape: floor, wall and ceiling each in its colour, then the rest on one line.
static void kcc_draw_flag_labels( const kcc_debug_draw* draw, uint32_t flags, vec2s top_left )
{
	static const struct
	{
		uint32_t flag;
		const char* name;
	} others[] = {
		{ KCC_SNAPPED, "snapped" },   { KCC_STEPPED, "stepped" },     { KCC_DEPENETRATED, "depenetrated" },
		{ KCC_CRUSHED, "crushed" },   { KCC_HIT_LIMIT, "hit limit" }, { KCC_PUSHED, "pushed" },
		{ KCC_CORNER_CORRECTED, "corner" },
	};
	char line[128];
	int length = 0;
	line[0] = '\0';
	for ( size_t i = 0; i < sizeof( others ) / sizeof( others[0] ); ++i )
	{
		if ( ( flags & others[i].flag ) != 0 && length < (int)sizeof( line ) )
		{
			const char* space = length > 0 ? " " : "";
			length += snprintf( line + length, sizeof( line ) - (size_t)length, "%s%s", space, others[i].name );
		}
	}
	vec2s p = top_left;
	if ( line[0] != '\0' )
	{
		p.y += draw->text_height;
		kcc_draw_text( draw, p, line, draw->text_color );
	}
	const struct
	{
		uint32_t flag;
		const char* name;
		kcc_color color;
	} contacts[] = {
		{ KCC_ON_CEILING, "ceiling", draw->ceiling_color },
		{ KCC_ON_WALL, "wall", draw->wall_color },
		{ KCC_ON_FLOOR, "floor", draw->floor_color },
	};
	for ( size_t i = 0; i < sizeof( contacts ) / sizeof( contacts[0] ); ++i )
	{
		if ( ( flags & contacts[i].flag ) != 0 )
		{
			p.y += draw->text_height;
			kcc_draw_text( draw, p, contacts[i].name, contacts[i].color );
		}
	}
}

void kcc_debug_draw_move( const kcc_debug_draw* draw, const kcc_controller* c, vec2s wanted,
						  const kcc_move_result* result )
{
	if ( draw == NULL || result == NULL || kcc_is_valid_vec2( result->position ) == false )
	{
		return;
	}
	const kcc_move_result* r = result;
	int path_count = kcc_clamp_count( r->path_count, KCC_MAX_PATH_POINTS );
	vec2s start = path_count > 0 ? r->path[0] : glms_vec2_sub( r->position, r->displacement );

	// The shape where the move ended.
	kcc_shape world = { .type = KCC_SHAPE_INVALID };
	if ( c != NULL )
	{
		kcc_controller_state state = kcc_controller_get_state( c );
		world = kcc_shape_translate( &state.shape, r->position );
		kcc_debug_draw_shape( draw, &world, draw->shape_color, KCC_COLOR_NONE );
	}

	// The path, a dot at each of its points.
	for ( int i = 0; i < path_count; ++i )
	{
		if ( i + 1 < path_count )
		{
			kcc_draw_line( draw, r->path[i], r->path[i + 1], draw->path_color );
		}
		kcc_debug_draw_point( draw, r->path[i], draw->path_color );
	}

	// The wanted direction (the displacement that produced the move: it may be tiny per frame, so a fixed length).
	vec2s direction = kcc_unit_or_zero( wanted );
	if ( direction.x != 0.0f || direction.y != 0.0f )
	{
		vec2s tip = glms_vec2_muladds( direction, 2.0f * draw->arrow_length, start );
		kcc_debug_draw_arrow( draw, start, tip, draw->motion_color );
	}
	else
	{
		direction = kcc_unit_or_zero( r->displacement );
	}

	// Contacts: point and normal in white, the slide tangent (seed 004: the normal's perpendicular, turned to agree
	// with the motion) in magenta.
	int collision_count = kcc_clamp_count( r->collision_count, KCC_MAX_COLLISIONS );
	for ( int i = 0; i < collision_count; ++i )
	{
		const kcc_collision* hit = r->collisions + i;
		if ( kcc_is_valid_vec2( hit->point ) == false || kcc_is_valid_vec2( hit->normal ) == false )
		{
			continue;
		}
		kcc_debug_draw_point( draw, hit->point, draw->hit_color );
		vec2s tip = glms_vec2_muladds( hit->normal, draw->arrow_length, hit->point );
		kcc_debug_draw_arrow( draw, hit->point, tip, draw->hit_color );
		vec2s tangent = kcc_v2( -hit->normal.y, hit->normal.x );
		float along = glms_vec2_dot( tangent, direction );
		if ( along != 0.0f )
		{
			tangent = glms_vec2_scale( tangent, along > 0.0f ? 1.0f : -1.0f );
			kcc_debug_draw_arrow( draw, hit->point, glms_vec2_muladds( tangent, draw->arrow_length, hit->point ),
								  draw->tangent_color );
		}
	}

	// The floor normal, from where the shape rests on it.
	if ( ( r->flags & KCC_ON_FLOOR ) != 0 && kcc_is_valid_vec2( r->floor_normal ) )
	{
		vec2s foot = world.type != KCC_SHAPE_INVALID ? kcc_lowest_point( &world, r->floor_normal ) : r->position;
		vec2s tip = glms_vec2_muladds( r->floor_normal, draw->arrow_length, foot );
		kcc_debug_draw_arrow( draw, foot, tip, draw->floor_color );
	}

	// Zone events where they happened along the path, stacked when several share a place.
	int event_count = kcc_clamp_count( r->sensor_event_count, KCC_MAX_SENSOR_EVENTS );
	for ( int i = 0; i < event_count; ++i )
	{
		const kcc_sensor_event* e = r->sensor_events + i;
		vec2s at = kcc_path_point( r, path_count, e->travel );
		char label[96];
		const char* sign = e->type == KCC_SENSOR_BEGIN ? "+" : "-";
		snprintf( label, sizeof( label ), "%s%s", sign, kcc_shape_label( draw, e->shape ) );
		kcc_debug_draw_point( draw, at, draw->event_color );
		kcc_draw_text( draw, kcc_v2( at.x, at.y - draw->text_height * (float)i ), label, draw->event_color );
	}

	// Flags above the shape.
	vec2s top_left = r->position;
	if ( world.type != KCC_SHAPE_INVALID )
	{
		kcc_aabb bounds = kcc_shape_bounds( &world );
		top_left = kcc_v2( bounds.min.x, bounds.max.y );
	}
	kcc_draw_flag_labels( draw, r->flags, top_left );
}

// ---------------------------------------------------------------------------------------------------------------
// A space's shapes. cpSpaceDebugDraw asks for a shape's colour right before it draws that shape, so the colour
// callback names the shape the next geometry callback belongs to.

typedef struct kcc_space_walk
{
	kcc_space_shape_fcn* fcn;
	void* context;
	const cpShape* shape; ///< the shape whose geometry comes next
} kcc_space_walk;

static void kcc_walk_emit( kcc_space_walk* walk, const kcc_shape* world )
{
	if ( walk->shape != NULL )
	{
		walk->fcn( walk->shape, world, walk->context );
		walk->shape = NULL;
	}
}

static cpSpaceDebugColor kcc_walk_color( cpShape* shape, cpDataPointer data )
{
	kcc_space_walk* walk = data;
	walk->shape = shape;
	cpSpaceDebugColor none = { 0.0f, 0.0f, 0.0f, 0.0f };
	return none;
}

static void kcc_walk_circle( cpVect center, cpFloat angle, cpFloat radius, cpSpaceDebugColor line,
							 cpSpaceDebugColor fill, cpDataPointer data )
{
	(void)angle;
	(void)line;
	(void)fill;
	float r = kcc_bridge_to_float( radius );
	vec2s c = kcc_bridge_from_cpv( center );
	kcc_shape world = { .type = KCC_SHAPE_INVALID };
	if ( kcc_is_valid_vec2( c ) && kcc_is_valid_float( r ) && r >= 0.0f )
	{
		world = kcc_make_circle( c, r );
	}
	kcc_walk_emit( data, &world );
}

static void kcc_walk_segment( cpVect a, cpVect b, cpFloat radius, cpSpaceDebugColor line, cpSpaceDebugColor fill,
							  cpDataPointer data )
{
	(void)line;
	(void)fill;
	float r = kcc_bridge_to_float( radius );
	vec2s pa = kcc_bridge_from_cpv( a ), pb = kcc_bridge_from_cpv( b );
	kcc_shape world = { .type = KCC_SHAPE_INVALID };
	if ( kcc_is_valid_vec2( pa ) && kcc_is_valid_vec2( pb ) && kcc_is_valid_float( r ) && r >= 0.0f )
	{
		world = kcc_make_capsule( pa, pb, r );
	}
	kcc_walk_emit( data, &world );
}

// Twice the signed area, in double: a polygon with none (collinear or repeated vertices) is not made.
static double kcc_twice_area( const cpVect* verts, int count )
{
	double twice = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		cpVect a = verts[i], b = verts[( i + 1 ) % count];
		twice += a.x * b.y - b.x * a.y;
	}
	return twice;
}

static void kcc_walk_polygon( int count, const cpVect* verts, cpFloat radius, cpSpaceDebugColor line,
							  cpSpaceDebugColor fill, cpDataPointer data )
{
	(void)line;
	(void)fill;
	kcc_shape world = { .type = KCC_SHAPE_INVALID };
	vec2s points[KCC_MAX_POLYGON_VERTICES];
	bool usable = count >= 3 && count <= KCC_MAX_POLYGON_VERTICES;
	double extent = 0.0;
	for ( int i = 0; usable && i < count; ++i )
	{
		points[i] = kcc_bridge_from_cpv( verts[i] );
		usable = kcc_is_valid_vec2( points[i] );
		extent += fabs( verts[i].x - verts[0].x ) + fabs( verts[i].y - verts[0].y );
	}
	float r = kcc_bridge_to_float( radius );
	// An area far below what float coordinates resolve at this extent is none (the hull would refuse it).
	bool has_area = usable && fabs( kcc_twice_area( verts, count ) ) > 1.0e-6 * extent * extent / count;
	if ( has_area && kcc_is_valid_float( r ) && r >= 0.0f )
	{
		world = kcc_make_polygon( points, count, r );
	}
	kcc_walk_emit( data, &world );
}

static void kcc_walk_line( cpVect a, cpVect b, cpSpaceDebugColor color, cpDataPointer data )
{
	(void)a;
	(void)b;
	(void)color;
	(void)data;
}

static void kcc_walk_dot( cpFloat size, cpVect p, cpSpaceDebugColor color, cpDataPointer data )
{
	(void)size;
	(void)p;
	(void)color;
	(void)data;
}

void kcc_space_each_shape( cpSpace* space, kcc_space_shape_fcn* fcn, void* context )
{
	if ( space == NULL || fcn == NULL || cpSpaceIsLocked( space ) )
	{
		return;
	}
	kcc_space_walk walk = { fcn, context, NULL };
	cpSpaceDebugDrawOptions options;
	memset( &options, 0, sizeof( options ) );
	options.drawCircle = kcc_walk_circle;
	options.drawSegment = kcc_walk_line;
	options.drawFatSegment = kcc_walk_segment;
	options.drawPolygon = kcc_walk_polygon;
	options.drawDot = kcc_walk_dot;
	options.flags = CP_SPACE_DEBUG_DRAW_SHAPES;
	options.colorForShape = kcc_walk_color;
	options.data = &walk;
	cpSpaceDebugDraw( space, &options );
}

typedef struct kcc_space_draw
{
	const kcc_debug_draw* draw;
	kcc_shape_style_fcn* style;
	void* context;
} kcc_space_draw;

static void kcc_draw_space_shape( const cpShape* shape, const kcc_shape* world, void* context )
{
	const kcc_space_draw* d = context;
	kcc_color line = d->draw->shape_color, fill = KCC_COLOR_NONE;
	if ( d->style == NULL || d->style( shape, &line, &fill, d->context ) )
	{
		kcc_debug_draw_shape( d->draw, world, line, fill );
	}
}

void kcc_debug_draw_space( const kcc_debug_draw* draw, cpSpace* space, kcc_shape_style_fcn* style, void* context )
{
	if ( draw == NULL )
	{
		return;
	}
	kcc_space_draw d = { draw, style, context };
	kcc_space_each_shape( space, kcc_draw_space_shape, &d );
}
