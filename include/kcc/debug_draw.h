// SPDX-License-Identifier: MIT
// kcc2d debug drawing: any kcc_shape, and a character with its last move, drawn through callbacks you give (your
// renderer: SDL, raylib, sokol_gl, ImGui ...), as Box2D's b2DebugDraw does. No renderer dependency, no allocation.
//
//   kcc_debug_draw draw = kcc_default_debug_draw();
//   draw.draw_segment = my_line;            // the only callback needed: the others fall back to segments
//   draw.draw_text = my_text;               // optional (labels are skipped without it)
//   draw.context = my_renderer;
//   kcc_debug_draw_shape( &draw, &sword_arc, draw.hit_color, KCC_COLOR_NONE );
//   kcc_debug_draw_move( &draw, player, kcc_v2( vx * dt, vy * dt ), &result );
//
// Coordinates are world units, y up, as everywhere in kcc2d: the callbacks transform to the screen. See
// docs/debug_draw.md.
#pragma once

#include "kcc/geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A colour, 8 bits per channel; a = 255 is opaque, a = 0 draws nothing where a fill is optional.
typedef struct kcc_color
{
	uint8_t r, g, b, a;
} kcc_color;

#ifdef __cplusplus
#define KCC_COLOR( r, g, b, a ) ( kcc_color{ r, g, b, a } )
#else
#define KCC_COLOR( r, g, b, a ) ( (kcc_color){ r, g, b, a } )
#endif
#define KCC_COLOR_NONE KCC_COLOR( 0, 0, 0, 0 ) ///< no fill

/// Most points kcc_debug_draw_shape outlines a shape with (its stack buffer); finer arcs are coarsened to fit.
#define KCC_DEBUG_DRAW_MAX_POINTS 256

/// Callbacks and settings. Make it with kcc_default_debug_draw(), then set the callbacks you have. Every callback
/// is optional: without draw_segment nothing is drawn; any other one missing is drawn with segments (text is then
/// skipped). All receive the context.
typedef struct kcc_debug_draw
{
	/// A line segment from a to b.
	void ( *draw_segment )( vec2s a, vec2s b, kcc_color color, void* context );
	/// A closed outline through count points (the last joins the first). Counter-clockwise.
	void ( *draw_polygon )( const vec2s* points, int count, kcc_color color, void* context );
	/// A filled polygon: points as kcc_shape_outline writes them. Every point sees every other from points[0] (the
	/// outline is star-shaped from it, sectors wider than pi included), so a triangle fan from points[0] fills it.
	void ( *draw_solid_polygon )( const vec2s* points, int count, kcc_color color, void* context );
	/// A circle's outline.
	void ( *draw_circle )( vec2s center, float radius, kcc_color color, void* context );
	/// A capsule's outline: the points within radius of the segment ab.
	void ( *draw_capsule )( vec2s a, vec2s b, float radius, kcc_color color, void* context );
	/// An arc of a circle: from start_angle, counter-clockwise by sweep (radians; sweep in (0, 2*pi]).
	void ( *draw_arc )( vec2s center, float radius, float start_angle, float sweep, kcc_color color, void* context );
	/// A dot of size pixels at p.
	void ( *draw_point )( vec2s p, float size, kcc_color color, void* context );
	/// One line of text whose top-left corner is at p.
	void ( *draw_text )( vec2s p, const char* text, kcc_color color, void* context );
	/// Optional: a name for a world shape the controller reports (a cpShape*: a zone, a floor), used in labels;
	/// NULL or a NULL result: unnamed.
	const char* ( *name_of )( const void* shape, void* context );
	void* context; ///< passed to every callback

	float arc_step;      ///< largest angle between two points of an outline's arcs, radians. Default 5 degrees
	float arrow_length;  ///< world units: normals, tangents and the motion direction. Default 0.5
	float point_size;    ///< pixels: hit points and path points. Default 5
	float text_height;   ///< world units between two lines of text. Default 0.35

	kcc_color shape_color;   ///< the character's outline. Default light grey
	kcc_color path_color;    ///< the path of the move. Default light blue
	kcc_color hit_color;     ///< hit points and normals. Default white
	kcc_color motion_color;  ///< the direction the game asked for. Default yellow
	kcc_color tangent_color; ///< the slide tangent at each hit. Default magenta
	kcc_color floor_color;   ///< the "floor" label and the floor normal. Default green
	kcc_color wall_color;    ///< the "wall" label. Default orange
	kcc_color ceiling_color; ///< the "ceiling" label. Default cyan
	kcc_color event_color;   ///< zone events along the path. Default pink
	kcc_color text_color;    ///< other labels (stepped, snapped, pushed ...). Default white
} kcc_debug_draw;

/// Default sizes and colours, no callbacks, no context.
KCC_API kcc_debug_draw kcc_default_debug_draw( void );

/// The outline of a shape as points on its boundary, counter-clockwise: polygon, AABB and OBB corners, circles and
/// the rounding of capsules and rounded polygons as arcs with at most max_angle radians between two points, a
/// sector as its apex then its arc (any opening below 2*pi; a 2*pi sector is its circle). Writes at most capacity
/// points and returns how many; when the outline at max_angle needs more, its arcs are made coarser to fit (down to
/// a quarter turn per step).
/// Returns 0 (and writes nothing) for an invalid or NULL shape, NULL points, max_angle not finite and positive, or a
/// capacity below what the coarsest outline needs. A zero radius gives 1 point (circle) or 2 (capsule).
/// max_angle below 1e-3 counts as 1e-3. Never allocates.
KCC_API int kcc_shape_outline( const kcc_shape* s, float max_angle, vec2s* points, int capacity );

/// How many points kcc_shape_outline writes for this shape at max_angle with room enough; 0 for bad input.
KCC_API int kcc_shape_outline_count( const kcc_shape* s, float max_angle );

/// Draws a shape: its outline in line (circles and capsules through draw_circle / draw_capsule when given), and
/// filled with fill through draw_solid_polygon when fill.a > 0. Invalid shapes and a NULL draw are ignored.
KCC_API void kcc_debug_draw_shape( const kcc_debug_draw* draw, const kcc_shape* s, kcc_color line, kcc_color fill );

/// An arrow from a to b: a segment and a head a fifth of arrow_length long.
KCC_API void kcc_debug_draw_arrow( const kcc_debug_draw* draw, vec2s a, vec2s b, kcc_color color );

/// A dot: draw_point, or without it a small cross of segments.
KCC_API void kcc_debug_draw_point( const kcc_debug_draw* draw, vec2s p, kcc_color color );

// ---------------------------------------------------------------------------------------------------------------
// The controller (kcc2d::kcc2d; declared here so this header needs no Chipmunk).

typedef struct kcc_controller kcc_controller;
typedef struct kcc_move_result kcc_move_result;
typedef struct cpSpace cpSpace;
typedef struct cpShape cpShape;

/// Draws a character and its last move: its shape at result->position (shape_color), the path it moved through
/// (result->path, path_color), each collision's point and normal (hit_color) and slide tangent (the normal's
/// perpendicular that agrees with the motion, tangent_color), the direction of wanted (the displacement the game
/// asked for, e.g. velocity * dt; motion_color) from the start of the path, the floor normal, the flags as labels
/// above the shape (floor, wall, ceiling in their colours; stepped, snapped, pushed, crushed ...) and the zone
/// events where they happened along the path (+name entering, -name leaving; event_color). c may be NULL (no
/// shape); a NULL draw or result draws nothing.
KCC_API void kcc_debug_draw_move( const kcc_debug_draw* draw, const kcc_controller* c, vec2s wanted,
								  const kcc_move_result* result );

/// Receives one shape of a space and its geometry in world coordinates.
typedef void kcc_space_shape_fcn( const cpShape* shape, const kcc_shape* world, void* context );

/// Calls fcn for every shape of a Chipmunk space with its geometry as a kcc_shape in world coordinates: circles,
/// segments as capsules, polygons with their rounding (a polygon of more than KCC_MAX_POLYGON_VERTICES vertices,
/// or one without area, as an invalid shape). Sensors included. Through Chipmunk's public cpSpaceDebugDraw (Chipmunk
/// has no public query for a shape's kind); call it outside Chipmunk callbacks. Never allocates.
KCC_API void kcc_space_each_shape( cpSpace* space, kcc_space_shape_fcn* fcn, void* context );

/// Chooses how a space's shape is drawn: set line and fill (fill.a = 0: no fill) and return true, or false to skip it.
typedef bool kcc_shape_style_fcn( const cpShape* shape, kcc_color* line, kcc_color* fill, void* context );

/// Draws every shape of a space with kcc_debug_draw_shape, in the colours style gives (NULL: shape_color, no fill).
KCC_API void kcc_debug_draw_space( const kcc_debug_draw* draw, cpSpace* space, kcc_shape_style_fcn* style,
								   void* context );

#ifdef __cplusplus
}
#endif
