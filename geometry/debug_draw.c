// SPDX-License-Identifier: MIT
// Debug drawing of shapes: outlines as points (arcs at a chosen resolution), and the fallbacks that draw every
// primitive with segments when the renderer gives no callback for it.
#include "kcc/debug_draw.h"

#include <float.h>

#define KCC_OUTLINE_PI 3.14159265358979323846f

// No arc is drawn coarser than a quarter turn (a circle keeps 4 points, a capsule end 3) nor finer than this: a
// renderer gains nothing below a milliradian, and the bound keeps point counts far from int overflow.
#define KCC_OUTLINE_MAX_STEP ( 0.5f * KCC_OUTLINE_PI )
#define KCC_OUTLINE_MIN_STEP 1.0e-3f

// The outline is a list of pieces: a corner point, an arc (both ends included) or a whole circle.
typedef enum kcc_piece_kind
{
	KCC_PIECE_POINT,
	KCC_PIECE_ARC,
	KCC_PIECE_CIRCLE,
} kcc_piece_kind;

typedef struct kcc_outline_piece
{
	kcc_piece_kind kind;
	vec2s center;
	float radius;
	float start; // radians
	float sweep; // radians, counter-clockwise
} kcc_outline_piece;

// One piece per polygon vertex at most, or a sector's apex and arc.
#define KCC_OUTLINE_MAX_PIECES KCC_MAX_POLYGON_VERTICES

static kcc_outline_piece kcc_point_piece( vec2s p )
{
	kcc_outline_piece piece = { KCC_PIECE_POINT, p, 0.0f, 0.0f, 0.0f };
	return piece;
}

static kcc_outline_piece kcc_arc_piece( vec2s center, float radius, float start, float sweep )
{
	kcc_outline_piece piece = { KCC_PIECE_ARC, center, radius, start, sweep };
	return piece;
}

// A sector of 2*pi is a disc: its apex is inside, not on its outline.
static bool kcc_sector_is_disc( const kcc_sector* c )
{
	return c->angle >= 2.0f * KCC_OUTLINE_PI;
}

static float kcc_angle_of( vec2s v )
{
	return atan2f( v.y, v.x );
}

// The pieces of a valid shape, counter-clockwise; returns their count (0 for an invalid shape).
static int kcc_outline_pieces( const kcc_shape* s, kcc_outline_piece* pieces )
{
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			if ( s->circle.radius == 0.0f )
			{
				pieces[0] = kcc_point_piece( s->circle.center );
				return 1;
			}
			pieces[0] = ( kcc_outline_piece ){ KCC_PIECE_CIRCLE, s->circle.center, s->circle.radius, 0.0f,
											   2.0f * KCC_OUTLINE_PI };
			return 1;
		case KCC_SHAPE_CAPSULE:
		{
			const kcc_capsule* c = &s->capsule;
			bool point_core = c->a.x == c->b.x && c->a.y == c->b.y;
			if ( c->radius == 0.0f )
			{
				pieces[0] = kcc_point_piece( c->a );
				pieces[1] = kcc_point_piece( c->b );
				return point_core ? 1 : 2;
			}
			if ( point_core )
			{
				kcc_shape circle = kcc_make_circle( c->a, c->radius );
				return kcc_outline_pieces( &circle, pieces );
			}
			// Round the far end from the right side to the left, then the near end back.
			float axis = kcc_angle_of( glms_vec2_sub( c->b, c->a ) );
			pieces[0] = kcc_arc_piece( c->b, c->radius, axis - 0.5f * KCC_OUTLINE_PI, KCC_OUTLINE_PI );
			pieces[1] = kcc_arc_piece( c->a, c->radius, axis + 0.5f * KCC_OUTLINE_PI, KCC_OUTLINE_PI );
			return 2;
		}
		case KCC_SHAPE_AABB:
			pieces[0] = kcc_point_piece( s->aabb.min );
			pieces[1] = kcc_point_piece( kcc_v2( s->aabb.max.x, s->aabb.min.y ) );
			pieces[2] = kcc_point_piece( s->aabb.max );
			pieces[3] = kcc_point_piece( kcc_v2( s->aabb.min.x, s->aabb.max.y ) );
			return 4;
		case KCC_SHAPE_OBB:
		{
			const kcc_obb* o = &s->obb;
			vec2s ax = glms_vec2_scale( o->rotation, o->half_extents.x );
			vec2s ay = glms_vec2_scale( kcc_v2( -o->rotation.y, o->rotation.x ), o->half_extents.y );
			pieces[0] = kcc_point_piece( glms_vec2_sub( glms_vec2_sub( o->center, ax ), ay ) );
			pieces[1] = kcc_point_piece( glms_vec2_sub( glms_vec2_add( o->center, ax ), ay ) );
			pieces[2] = kcc_point_piece( glms_vec2_add( glms_vec2_add( o->center, ax ), ay ) );
			pieces[3] = kcc_point_piece( glms_vec2_add( glms_vec2_sub( o->center, ax ), ay ) );
			return 4;
		}
		case KCC_SHAPE_POLYGON:
		{
			const kcc_polygon* p = &s->polygon;
			for ( int i = 0; i < p->count; ++i )
			{
				if ( p->radius == 0.0f )
				{
					pieces[i] = kcc_point_piece( p->vertices[i] );
					continue;
				}
				// The rounding at a vertex turns from the normal of the edge before it to the normal of the edge after.
				vec2s n0 = p->normals[( i + p->count - 1 ) % p->count], n1 = p->normals[i];
				float turn = atan2f( n0.x * n1.y - n0.y * n1.x, n0.x * n1.x + n0.y * n1.y );
				pieces[i] = kcc_arc_piece( p->vertices[i], p->radius, kcc_angle_of( n0 ), turn );
			}
			return p->count;
		}
		case KCC_SHAPE_SECTOR:
		{
			const kcc_sector* c = &s->sector;
			if ( kcc_sector_is_disc( c ) )
			{
				pieces[0] = ( kcc_outline_piece ){ KCC_PIECE_CIRCLE, c->apex, c->radius, 0.0f, 2.0f * KCC_OUTLINE_PI };
				return 1;
			}
			pieces[0] = kcc_point_piece( c->apex );
			pieces[1] = kcc_arc_piece( c->apex, c->radius, kcc_angle_of( c->direction ) - 0.5f * c->angle, c->angle );
			return 2;
		}
		default:
			return 0;
	}
}

// Segments of an arc piece at this step (at least 1; a whole circle at least 4).
static int kcc_piece_segments( const kcc_outline_piece* piece, float step )
{
	int n = (int)ceilf( piece->sweep / step );
	int least = piece->kind == KCC_PIECE_CIRCLE ? 4 : 1;
	return n > least ? n : least;
}

static int kcc_piece_point_count( const kcc_outline_piece* piece, float step )
{
	switch ( piece->kind )
	{
		case KCC_PIECE_POINT:
			return 1;
		case KCC_PIECE_ARC:
			return kcc_piece_segments( piece, step ) + 1;
		default:
			return kcc_piece_segments( piece, step ); // the closing point is the first
	}
}

static int kcc_outline_point_count( const kcc_outline_piece* pieces, int count, float step )
{
	int total = 0;
	for ( int i = 0; i < count; ++i )
	{
		total += kcc_piece_point_count( pieces + i, step );
	}
	return total;
}

static bool kcc_valid_step( float max_angle )
{
	return kcc_is_valid_float( max_angle ) && max_angle > 0.0f;
}

static float kcc_clamp_step( float step )
{
	step = step < KCC_OUTLINE_MIN_STEP ? KCC_OUTLINE_MIN_STEP : step;
	return step > KCC_OUTLINE_MAX_STEP ? KCC_OUTLINE_MAX_STEP : step;
}

// The finest step not below max_angle whose outline fits capacity, or 0 when even the coarsest does not fit.
static float kcc_outline_step( const kcc_outline_piece* pieces, int count, float max_angle, int capacity )
{
	float step = kcc_clamp_step( max_angle );
	if ( kcc_outline_point_count( pieces, count, step ) <= capacity )
	{
		return step;
	}
	if ( kcc_outline_point_count( pieces, count, KCC_OUTLINE_MAX_STEP ) > capacity )
	{
		return 0.0f;
	}
	// An arc of sweep s takes at most s / step + 2 points, so spreading the total sweep over what capacity leaves
	// after two points per arc and one per corner fits; the loop only absorbs rounding.
	float sweep = 0.0f;
	int fixed = 0;
	for ( int i = 0; i < count; ++i )
	{
		sweep += pieces[i].sweep;
		fixed += pieces[i].kind == KCC_PIECE_POINT ? 1 : 2;
	}
	step = capacity > fixed ? kcc_clamp_step( sweep / (float)( capacity - fixed ) ) : KCC_OUTLINE_MAX_STEP;
	step = step > max_angle ? step : kcc_clamp_step( max_angle );
	while ( step < KCC_OUTLINE_MAX_STEP && kcc_outline_point_count( pieces, count, step ) > capacity )
	{
		step = kcc_clamp_step( step * 1.01f );
	}
	return step;
}

static int kcc_emit_piece( const kcc_outline_piece* piece, float step, vec2s* out )
{
	if ( piece->kind == KCC_PIECE_POINT )
	{
		out[0] = piece->center;
		return 1;
	}
	int segments = kcc_piece_segments( piece, step );
	int points = kcc_piece_point_count( piece, step );
	for ( int k = 0; k < points; ++k )
	{
		// Each angle from the start, not by accumulated rotations: the arc's last point lands on its end exactly.
		float angle = piece->start + piece->sweep * (float)k / (float)segments;
		out[k] = glms_vec2_add( piece->center, kcc_v2( piece->radius * cosf( angle ), piece->radius * sinf( angle ) ) );
	}
	return points;
}

int kcc_shape_outline( const kcc_shape* s, float max_angle, vec2s* points, int capacity )
{
	if ( s == NULL || points == NULL || capacity <= 0 || kcc_valid_step( max_angle ) == false ||
		 kcc_shape_is_valid( s ) == false )
	{
		return 0;
	}
	kcc_outline_piece pieces[KCC_OUTLINE_MAX_PIECES];
	int piece_count = kcc_outline_pieces( s, pieces );
	float step = kcc_outline_step( pieces, piece_count, max_angle, capacity );
	if ( step == 0.0f )
	{
		return 0;
	}
	int n = 0;
	for ( int i = 0; i < piece_count; ++i )
	{
		n += kcc_emit_piece( pieces + i, step, points + n );
	}
	return n;
}

int kcc_shape_outline_count( const kcc_shape* s, float max_angle )
{
	if ( s == NULL || kcc_valid_step( max_angle ) == false || kcc_shape_is_valid( s ) == false )
	{
		return 0;
	}
	kcc_outline_piece pieces[KCC_OUTLINE_MAX_PIECES];
	int piece_count = kcc_outline_pieces( s, pieces );
	return kcc_outline_point_count( pieces, piece_count, kcc_clamp_step( max_angle ) );
}

// ---------------------------------------------------------------------------------------------------------------
// Drawing

kcc_debug_draw kcc_default_debug_draw( void )
{
	kcc_debug_draw draw = { 0 };
	draw.arc_step = 5.0f * KCC_OUTLINE_PI / 180.0f;
	draw.arrow_length = 0.5f;
	draw.point_size = 5.0f;
	draw.text_height = 0.35f;
	draw.shape_color = KCC_COLOR( 220, 220, 230, 255 );
	draw.path_color = KCC_COLOR( 110, 190, 255, 255 );
	draw.hit_color = KCC_COLOR( 255, 255, 255, 255 );
	draw.motion_color = KCC_COLOR( 255, 230, 40, 255 );
	draw.tangent_color = KCC_COLOR( 255, 60, 255, 255 );
	draw.floor_color = KCC_COLOR( 90, 230, 110, 255 );
	draw.wall_color = KCC_COLOR( 255, 150, 50, 255 );
	draw.ceiling_color = KCC_COLOR( 80, 220, 240, 255 );
	draw.event_color = KCC_COLOR( 255, 130, 190, 255 );
	draw.text_color = KCC_COLOR( 255, 255, 255, 255 );
	return draw;
}

static void kcc_draw_segment( const kcc_debug_draw* draw, vec2s a, vec2s b, kcc_color color )
{
	if ( draw->draw_segment != NULL )
	{
		draw->draw_segment( a, b, color, draw->context );
	}
}

// A closed outline: draw_polygon, or its edges as segments (a single point as a dot).
static void kcc_draw_closed( const kcc_debug_draw* draw, const vec2s* points, int count, kcc_color color )
{
	if ( count == 1 )
	{
		kcc_debug_draw_point( draw, points[0], color );
	}
	else if ( count == 2 )
	{
		kcc_draw_segment( draw, points[0], points[1], color );
	}
	else if ( draw->draw_polygon != NULL )
	{
		draw->draw_polygon( points, count, color, draw->context );
	}
	else
	{
		for ( int i = 0; i < count; ++i )
		{
			kcc_draw_segment( draw, points[i], points[( i + 1 ) % count], color );
		}
	}
}

// The step arcs are drawn with: the draw's, or the default when it was set to something unusable.
static float kcc_draw_arc_step( const kcc_debug_draw* draw )
{
	return kcc_valid_step( draw->arc_step ) ? draw->arc_step : kcc_default_debug_draw().arc_step;
}

void kcc_debug_draw_shape( const kcc_debug_draw* draw, const kcc_shape* s, kcc_color line, kcc_color fill )
{
	if ( draw == NULL || s == NULL || kcc_shape_is_valid( s ) == false )
	{
		return;
	}
	vec2s points[KCC_DEBUG_DRAW_MAX_POINTS];
	int count = kcc_shape_outline( s, kcc_draw_arc_step( draw ), points, KCC_DEBUG_DRAW_MAX_POINTS );
	if ( fill.a > 0 && draw->draw_solid_polygon != NULL && count >= 3 )
	{
		draw->draw_solid_polygon( points, count, fill, draw->context );
	}
	if ( s->type == KCC_SHAPE_CIRCLE && draw->draw_circle != NULL )
	{
		draw->draw_circle( s->circle.center, s->circle.radius, line, draw->context );
	}
	else if ( s->type == KCC_SHAPE_CAPSULE && draw->draw_capsule != NULL )
	{
		draw->draw_capsule( s->capsule.a, s->capsule.b, s->capsule.radius, line, draw->context );
	}
	else if ( s->type == KCC_SHAPE_SECTOR && kcc_sector_is_disc( &s->sector ) && draw->draw_circle != NULL )
	{
		draw->draw_circle( s->sector.apex, s->sector.radius, line, draw->context );
	}
	else if ( s->type == KCC_SHAPE_SECTOR && kcc_sector_is_disc( &s->sector ) == false && draw->draw_arc != NULL )
	{
		const kcc_sector* c = &s->sector;
		float start = kcc_angle_of( c->direction ) - 0.5f * c->angle;
		vec2s first = glms_vec2_add( c->apex, kcc_v2( c->radius * cosf( start ), c->radius * sinf( start ) ) );
		float end = start + c->angle;
		vec2s last = glms_vec2_add( c->apex, kcc_v2( c->radius * cosf( end ), c->radius * sinf( end ) ) );
		kcc_draw_segment( draw, c->apex, first, line );
		draw->draw_arc( c->apex, c->radius, start, c->angle, line, draw->context );
		kcc_draw_segment( draw, last, c->apex, line );
	}
	else
	{
		kcc_draw_closed( draw, points, count, line );
	}
}

void kcc_debug_draw_arrow( const kcc_debug_draw* draw, vec2s a, vec2s b, kcc_color color )
{
	if ( draw == NULL || kcc_is_valid_vec2( a ) == false || kcc_is_valid_vec2( b ) == false )
	{
		return;
	}
	kcc_draw_segment( draw, a, b, color );
	vec2s d = glms_vec2_sub( b, a );
	float length = glms_vec2_norm( d );
	if ( length <= FLT_MIN )
	{
		return;
	}
	// Two barbs at 25 degrees off the shaft, pointing back.
	float head = 0.2f * draw->arrow_length;
	vec2s back = glms_vec2_scale( d, -head / length );
	const float c = 0.9063078f, sn = 0.4226183f;
	vec2s left = kcc_v2( c * back.x - sn * back.y, sn * back.x + c * back.y );
	vec2s right = kcc_v2( c * back.x + sn * back.y, -sn * back.x + c * back.y );
	kcc_draw_segment( draw, b, glms_vec2_add( b, left ), color );
	kcc_draw_segment( draw, b, glms_vec2_add( b, right ), color );
}

void kcc_debug_draw_point( const kcc_debug_draw* draw, vec2s p, kcc_color color )
{
	if ( draw == NULL || kcc_is_valid_vec2( p ) == false )
	{
		return;
	}
	if ( draw->draw_point != NULL )
	{
		draw->draw_point( p, draw->point_size, color, draw->context );
		return;
	}
	float h = 0.08f * draw->arrow_length;
	kcc_draw_segment( draw, kcc_v2( p.x - h, p.y - h ), kcc_v2( p.x + h, p.y + h ), color );
	kcc_draw_segment( draw, kcc_v2( p.x - h, p.y + h ), kcc_v2( p.x + h, p.y - h ), color );
}
