// SPDX-License-Identifier: MIT
// The controller object: its definition (defaults and validation), create / destroy, accessors and the state
// snapshot. The move itself is in move.c.
#include "chipmunk_bridge.h"
#include "internal.h"
#include "static_index.h"

#include <float.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------------------------
// Definition

kcc_controller_def kcc_default_controller_def( void )
{
	kcc_controller_def def;
	memset( &def, 0, sizeof( def ) );
	def.shape.type = KCC_SHAPE_CAPSULE;
	def.shape.capsule.a = kcc_v2( 0.0f, -0.3f );
	def.shape.capsule.b = kcc_v2( 0.0f, 0.3f );
	def.shape.capsule.radius = 0.3f;
	def.position = kcc_v2( 0.0f, 0.0f );
	def.up = kcc_v2( 0.0f, 1.0f );
	def.skin = 0.01f;
	def.min_move = 1.0e-4f;
	def.max_slides = 4;
	def.max_floor_angle = 0.25f * (float)GLM_PI;
	def.snap_distance = 0.1f;
	def.step_height = 0.0f;
	def.stop_on_slope = true;
	def.constant_speed_on_slopes = false;
	def.slide_on_ceiling = true;
	def.mode = KCC_MODE_GROUNDED;
	def.filter = cpShapeFilterNew( CP_NO_GROUP, CP_ALL_CATEGORIES, CP_ALL_CATEGORIES );
	def.one_way_categories = 0;
	def.pushable_categories = 0;
	def.max_displacement = 1000.0f;
	def.max_coordinate = 1.0e6f;
	def.max_depenetration_iterations = 4;
	def.max_candidates = 256;
	def.platform_on_leave = KCC_PLATFORM_LEAVE_ADD_VELOCITY;
	def.sensor_mask = CP_ALL_CATEGORIES;
	def.mass = 0.0f;
	def.corner_correction = 0.0f;
	def.step_min_width = 0.0f;
	def.internal_cookie = KCC_DEF_COOKIE;
	return def;
}

static bool kcc_in_range( float x, float lo, float hi )
{
	return kcc_is_valid_float( x ) && x >= lo && x <= hi;
}

// The geometry's validity rule, and what a character needs more: no sector, some width and height.
static const char* kcc_shape_problem( const kcc_shape* s )
{
	bool valid = kcc_shape_is_valid( s );
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			return valid && s->circle.radius > 0.0f ? NULL : "shape: circle needs a finite center and a radius > 0";
		case KCC_SHAPE_CAPSULE:
			return valid && s->capsule.radius > 0.0f ? NULL : "shape: capsule needs finite end points and a radius > 0";
		case KCC_SHAPE_AABB:
			return valid && s->aabb.max.x - s->aabb.min.x > 0.0f && s->aabb.max.y - s->aabb.min.y > 0.0f
					   ? NULL
					   : "shape: the box needs a width and a height > 0 (make it with kcc_make_aabb)";
		case KCC_SHAPE_OBB:
			return valid && s->obb.half_extents.x > 0.0f && s->obb.half_extents.y > 0.0f
					   ? NULL
					   : "shape: the box needs half extents > 0 (make it with kcc_make_obb)";
		case KCC_SHAPE_POLYGON:
			return valid ? NULL : "shape: invalid polygon (make it with kcc_make_polygon / kcc_make_box)";
		case KCC_SHAPE_SECTOR:
			return "shape: a sector can not be a character (use a circle, capsule, box or convex polygon)";
		default:
			return "shape: invalid shape (type KCC_SHAPE_INVALID or unknown)";
	}
}

// AABB and OBB characters become polygons (Chipmunk has no box other than a polygon).
static kcc_shape kcc_character_shape( const kcc_shape* s )
{
	if ( s->type != KCC_SHAPE_AABB && s->type != KCC_SHAPE_OBB )
	{
		return *s;
	}
	vec2s points[4];
	if ( s->type == KCC_SHAPE_AABB )
	{
		points[0] = s->aabb.min;
		points[1] = kcc_v2( s->aabb.max.x, s->aabb.min.y );
		points[2] = s->aabb.max;
		points[3] = kcc_v2( s->aabb.min.x, s->aabb.max.y );
	}
	else
	{
		vec2s ax = glms_vec2_scale( s->obb.rotation, s->obb.half_extents.x );
		vec2s ay = glms_vec2_scale( kcc_v2( -s->obb.rotation.y, s->obb.rotation.x ), s->obb.half_extents.y );
		points[0] = glms_vec2_sub( glms_vec2_sub( s->obb.center, ax ), ay );
		points[1] = glms_vec2_sub( glms_vec2_add( s->obb.center, ax ), ay );
		points[2] = glms_vec2_add( glms_vec2_add( s->obb.center, ax ), ay );
		points[3] = glms_vec2_add( glms_vec2_sub( s->obb.center, ax ), ay );
	}
	return kcc_make_polygon( points, 4, 0.0f );
}

// A character shape for this def (its other fields already checked): NULL and the shape the controller uses (a box
// as a polygon) in *local, or what is wrong.
static const char* kcc_shape_fits( const kcc_controller_def* def, const kcc_shape* shape, kcc_shape* local )
{
	const char* shape_problem = kcc_shape_problem( shape );
	if ( shape_problem != NULL )
	{
		return shape_problem;
	}
	kcc_aabb bounds = kcc_shape_bounds( shape );
	float size = kcc_maxf( bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y );
	if ( kcc_is_valid_float( size ) == false || size <= 0.0f || size > def->max_displacement )
	{
		return "shape: its size must be > 0 and at most max_displacement";
	}
	if ( kcc_maxf( kcc_maxf( fabsf( bounds.min.x ), fabsf( bounds.max.x ) ), kcc_maxf( fabsf( bounds.min.y ), fabsf( bounds.max.y ) ) ) >
		 def->max_coordinate )
	{
		return "shape: local coordinates must be within max_coordinate";
	}
	if ( kcc_in_range( def->skin, 1.0e-5f * size, 0.5f * size ) == false )
	{
		return "skin: must be finite and between 1e-5 of the shape's size (float resolution) and half of it";
	}
	if ( kcc_in_range( def->corner_correction, 0.0f, size ) == false )
	{
		return "corner_correction: must be finite and in [0, the shape's size]";
	}
	*local = kcc_character_shape( shape );
	if ( local->type == KCC_SHAPE_INVALID )
	{
		return "shape: the box is too thin for float precision where it is (its corners round together)";
	}
	return NULL;
}

// A finite vector of length 1 (within rounding a game's own normalisation leaves): up, a floor normal.
static bool kcc_is_unit_direction( vec2s v )
{
	return kcc_is_valid_vec2( v ) && fabsf( glms_vec2_norm( v ) - 1.0f ) <= KCC_UNIT_DIRECTION_TOLERANCE;
}

// kcc_controller_def_problem, and the shape the controller uses in *local.
static const char* kcc_def_problem( const kcc_controller_def* def, kcc_shape* local )
{
	if ( def == NULL )
	{
		return "def is NULL";
	}
	if ( def->internal_cookie != KCC_DEF_COOKIE )
	{
		return "internal_cookie: def was not initialised with kcc_default_controller_def()";
	}
	if ( kcc_in_range( def->max_coordinate, FLT_MIN, 1.0e7f ) == false )
	{
		return "max_coordinate: must be finite, > 0 and <= 1e7 (float precision)";
	}
	if ( kcc_in_range( def->max_displacement, FLT_MIN, 2.0f * def->max_coordinate ) == false )
	{
		return "max_displacement: must be finite, > 0 and <= 2 * max_coordinate";
	}
	if ( kcc_is_valid_vec2( def->position ) == false || fabsf( def->position.x ) > def->max_coordinate ||
		 fabsf( def->position.y ) > def->max_coordinate )
	{
		return "position: must be finite and within max_coordinate";
	}
	if ( kcc_is_unit_direction( def->up ) == false )
	{
		return "up: must be a finite unit vector";
	}
	const char* shape_problem = kcc_shape_fits( def, &def->shape, local );
	if ( shape_problem != NULL )
	{
		return shape_problem;
	}
	if ( kcc_in_range( def->min_move, 0.0f, def->max_displacement ) == false )
	{
		return "min_move: must be finite and in [0, max_displacement]";
	}
	if ( def->max_slides < 1 || def->max_slides > KCC_MAX_SLIDES )
	{
		return "max_slides: must be in 1..16";
	}
	if ( kcc_is_valid_float( def->max_floor_angle ) == false || def->max_floor_angle < 0.0f ||
		 def->max_floor_angle >= 0.5f * (float)GLM_PI )
	{
		return "max_floor_angle: must be in [0, pi/2) radians";
	}
	if ( kcc_in_range( def->snap_distance, 0.0f, def->max_displacement ) == false )
	{
		return "snap_distance: must be finite and in [0, max_displacement]";
	}
	if ( kcc_in_range( def->step_height, 0.0f, def->max_displacement ) == false )
	{
		return "step_height: must be finite and in [0, max_displacement]";
	}
	if ( def->mode != KCC_MODE_GROUNDED && def->mode != KCC_MODE_FLOATING )
	{
		return "mode: must be KCC_MODE_GROUNDED or KCC_MODE_FLOATING";
	}
	if ( def->max_depenetration_iterations < 1 || def->max_depenetration_iterations > 16 )
	{
		return "max_depenetration_iterations: must be in 1..16";
	}
	if ( def->max_candidates < 16 || def->max_candidates > 65536 )
	{
		return "max_candidates: must be in 16..65536";
	}
	if ( def->platform_on_leave != KCC_PLATFORM_LEAVE_ADD_VELOCITY &&
		 def->platform_on_leave != KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY &&
		 def->platform_on_leave != KCC_PLATFORM_LEAVE_DO_NOTHING )
	{
		return "platform_on_leave: must be a kcc_platform_leave value";
	}
	if ( kcc_in_range( def->mass, 0.0f, FLT_MAX ) == false )
	{
		return "mass: must be finite and >= 0 (kg; 0: dynamic bodies are plain obstacles)";
	}
	if ( kcc_in_range( def->step_min_width, 0.0f, def->max_displacement ) == false )
	{
		return "step_min_width: must be finite and in [0, max_displacement]";
	}
	// A role is found from a shape's category bits: a mask of every bit, or bits in both roles, is a mistake.
	if ( def->one_way_categories == CP_ALL_CATEGORIES || def->pushable_categories == CP_ALL_CATEGORIES )
	{
		return "one_way_categories, pushable_categories: must not be every category (CP_ALL_CATEGORIES): give one-way "
			   "and pushable shapes a category bit of their own";
	}
	if ( ( def->one_way_categories & def->pushable_categories ) != 0 )
	{
		return "one_way_categories, pushable_categories: must not share bits (a shape is one-way or pushable, not "
			   "both)";
	}
	return NULL;
}

const char* kcc_controller_def_problem( const kcc_controller_def* def )
{
	kcc_shape local;
	return kcc_def_problem( def, &local );
}

// What the controller derives from its shape and up.
static void kcc_use_shape( kcc_controller* c, const kcc_shape* shape )
{
	c->local_shape = *shape;
	c->local_bounds = kcc_shape_bounds( shape );
	float rounding = shape->type == KCC_SHAPE_CIRCLE ? shape->circle.radius
					 : shape->type == KCC_SHAPE_CAPSULE ? shape->capsule.radius
					 : shape->type == KCC_SHAPE_POLYGON ? shape->polygon.radius : 0.0f;
	c->step_forward = rounding + c->def.skin;
	c->rounding = rounding;
	c->bottom_offset = kcc_shape_lowest_along( shape, c->def.up );
}

// ---------------------------------------------------------------------------------------------------------------
// Create / destroy

kcc_controller* kcc_controller_create( cpSpace* space, const kcc_controller_def* def )
{
	kcc_shape shape;
	const char* problem = kcc_def_problem( def, &shape );
	KCC_ASSERT( space != NULL, "kcc_controller_create: space is NULL" );
	KCC_ASSERT( problem == NULL, problem );
	if ( space == NULL || problem != NULL )
	{
		return NULL;
	}
	if ( cpSpaceIsLocked( space ) )
	{
		KCC_ASSERT( false, "kcc_controller_create: the space is locked (called from a Chipmunk callback?)" );
		return NULL;
	}

	kcc_controller* c = kcc_alloc( sizeof( kcc_controller ) );
	if ( c == NULL )
	{
		return NULL;
	}
	memset( c, 0, sizeof( *c ) );
	c->space = space;
	c->def = *def;
	c->def.up = glms_vec2_normalize( def->up );
	c->cos_floor = cosf( def->max_floor_angle );
	c->tan_floor = tanf( def->max_floor_angle );
	// Two skins: a character resting on a one-way top sits one skin above it, and a fall may end inside the skin.
	c->one_way_tolerance = 2.0f * def->skin;
	c->batch_body = -1;
	kcc_use_shape( c, &shape );
	// The group makes this controller's own queries skip its shape; it is never used to order anything.
	c->query_filter = cpShapeFilterNew( (cpGroup)(uintptr_t)c, def->filter.categories, def->filter.mask );
	// Sensors are reported by sensor_mask, whatever the character's filter: when the two differ, the move's query
	// takes both and its callback sorts them out.
	c->filter_in_callback = def->filter.categories != CP_ALL_CATEGORIES || def->filter.mask != CP_ALL_CATEGORIES ||
							def->sensor_mask != CP_ALL_CATEGORIES;
	c->gather_filter = c->query_filter;
	if ( c->filter_in_callback )
	{
		c->gather_filter = cpShapeFilterNew( c->query_filter.group, CP_ALL_CATEGORIES, def->filter.mask | def->sensor_mask );
	}
	c->position = def->position;
	c->floor_normal = def->up;
	// Shared with the space's other controllers, with the single calls' move context, which must hold this one's
	// candidates.
	c->static_index = kcc_static_index_acquire( space );
	if ( c->static_index == NULL )
	{
		kcc_free( c );
		return NULL;
	}
	c->move = kcc_static_index_context( c->static_index );
	c->move->origin = def->position;
	if ( kcc_move_context_reserve( c->move, def->max_candidates ) == false || kcc_registry_add( c ) == false )
	{
		kcc_static_index_release( c->static_index );
		kcc_free( c );
		return NULL;
	}
	if ( kcc_world_create( c ) == false )
	{
		kcc_registry_remove( c );
		kcc_static_index_release( c->static_index );
		kcc_free( c );
		return NULL;
	}
	// Spawned on a moving platform: carried from the first move.
	kcc_detect_floor( c );
	return c;
}

static void kcc_controller_destroy_later( cpSpace* space, void* key, void* data )
{
	(void)space;
	(void)data;
	kcc_controller* c = key;
	kcc_world_destroy( c );
	kcc_static_index_release( c->static_index );
	kcc_free( c );
}

void kcc_controller_destroy( kcc_controller* c )
{
	if ( c == NULL )
	{
		return;
	}
	if ( kcc_registry_contains( c ) == false )
	{
		KCC_ASSERT( false, "kcc_controller_destroy: the controller was destroyed already (or is not a controller)" );
		return;
	}
	if ( cpSpaceIsLocked( c->space ) )
	{
		// Chipmunk can not remove a body from a locked space (a callback of a query or of cpSpaceStep): the body and
		// shape go when the space unlocks, in Chipmunk's post-step callback. The handle is dead from now on.
		kcc_registry_remove( c );
		cpSpaceAddPostStepCallback( c->space, kcc_controller_destroy_later, c, NULL );
		return;
	}
	if ( KCC_SPACE_ACQUIRE( c, "kcc_controller_destroy" ) != KCC_OK )
	{
		return; // another thread is using the space: a build with asserts names it; nothing is changed
	}
	kcc_world_destroy( c );
	kcc_space_release( c );
	kcc_static_index_release( c->static_index );
	kcc_registry_remove( c );
	kcc_free( c );
}

kcc_status kcc_space_acquire( kcc_controller* c, const char* locked_message, const char* busy_message )
{
	(void)locked_message;
	(void)busy_message;
	if ( cpSpaceIsLocked( c->space ) )
	{
		KCC_ASSERT( false, locked_message );
		return KCC_ERROR_SPACE_LOCKED;
	}
#if defined( KCC_ENABLE_ASSERT )
	if ( kcc_space_enter( c->watch ) == false )
	{
		kcc_space_leave( c->watch );
		KCC_ASSERT( false, busy_message );
		return KCC_ERROR_SPACE_LOCKED;
	}
#endif
	return KCC_OK;
}

void kcc_space_release( kcc_controller* c )
{
#if defined( KCC_ENABLE_ASSERT )
	kcc_space_leave( c->watch );
#else
	(void)c;
#endif
}

// ---------------------------------------------------------------------------------------------------------------
// Accessors and state

_Static_assert( sizeof( ( (kcc_controller_state*)0 )->supports ) == KCC_MAX_SUPPORTS * sizeof( vec2s ),
				"the state holds every support" );

// A change of up or mode: the ground state, the platform ridden and the shape dropped through no longer hold.
static void kcc_forget_floor( kcc_controller* c )
{
	c->flags = 0;
	c->floor_normal = c->def.up;
	c->support_count = 0;
	c->floor_shape = NULL;
	c->floor_one_way = false;
	c->drop_shape = NULL;
	c->platform = NULL;
	c->belt_velocity = kcc_v2( 0.0f, 0.0f );
}

kcc_status kcc_controller_drop_through( kcc_controller* c )
{
	if ( KCC_USABLE( c, "kcc_controller_drop_through" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( ( c->flags & KCC_ON_FLOOR ) == 0 || c->floor_one_way == false )
	{
		return KCC_ERROR_NOT_ON_ONE_WAY;
	}
	c->drop_shape = c->floor_shape;
	return KCC_OK;
}

vec2s kcc_controller_get_position( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_position" ) ? c->position : kcc_v2( 0.0f, 0.0f );
}

kcc_status kcc_controller_set_position( kcc_controller* c, vec2s p )
{
	if ( KCC_USABLE( c, "kcc_controller_set_position" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_status status = kcc_validate_position( c, p );
	if ( status != KCC_OK )
	{
		return status;
	}
	status = KCC_SPACE_ACQUIRE( c, "kcc_controller_set_position" );
	if ( status != KCC_OK )
	{
		return status;
	}
	c->position = p;
	kcc_world_sync_body( c );
	kcc_detect_floor( c );
	kcc_space_release( c );
	return KCC_OK;
}

uint32_t kcc_controller_get_flags( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_flags" ) ? c->flags : 0u;
}

bool kcc_controller_is_on_floor( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_is_on_floor" ) && ( c->flags & KCC_ON_FLOOR ) != 0;
}

bool kcc_controller_is_on_wall( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_is_on_wall" ) && ( c->flags & KCC_ON_WALL ) != 0;
}

bool kcc_controller_is_on_ceiling( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_is_on_ceiling" ) && ( c->flags & KCC_ON_CEILING ) != 0;
}

vec2s kcc_controller_get_floor_normal( const kcc_controller* c )
{
	bool on_floor = KCC_USABLE( c, "kcc_controller_get_floor_normal" ) && ( c->flags & KCC_ON_FLOOR ) != 0;
	return on_floor ? c->floor_normal : kcc_v2( 0.0f, 0.0f );
}

vec2s kcc_controller_get_wall_normal( const kcc_controller* c )
{
	bool on_wall = KCC_USABLE( c, "kcc_controller_get_wall_normal" ) && ( c->flags & KCC_ON_WALL ) != 0;
	return on_wall ? c->wall_normal : kcc_v2( 0.0f, 0.0f );
}

const cpShape* kcc_controller_get_floor_shape( const kcc_controller* c )
{
	bool on_floor = KCC_USABLE( c, "kcc_controller_get_floor_shape" ) && ( c->flags & KCC_ON_FLOOR ) != 0;
	return on_floor ? c->floor_shape : NULL;
}

cpBody* kcc_controller_get_body( kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_body" ) ? c->body : NULL;
}

cpShape* kcc_controller_get_shape( kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_shape" ) ? c->shape : NULL;
}

kcc_controller_state kcc_controller_get_state( const kcc_controller* c )
{
	kcc_controller_state s;
	memset( &s, 0, sizeof( s ) );
	if ( KCC_USABLE( c, "kcc_controller_get_state" ) == false )
	{
		return s;
	}
	s.position = c->position;
	s.up = c->def.up;
	s.mode = c->def.mode;
	s.shape = c->def.shape;
	s.flags = c->flags;
	s.floor_normal = c->floor_normal;
	s.support_count = c->support_count;
	memcpy( s.supports, c->supports, sizeof( s.supports ) );
	s.floor_shape = c->floor_shape;
	s.wall_normal = c->wall_normal;
	s.floor_one_way = c->floor_one_way;
	s.drop_shape = c->drop_shape;
	s.one_way_inside = c->one_way_inside;
	s.platform = c->platform;
	s.platform_position = c->platform_position;
	s.platform_angle = c->platform_angle;
	s.carry_anchor = c->carry_anchor;
	s.platform_velocity = c->platform_velocity;
	s.belt_velocity = c->belt_velocity;
	s.real_velocity = c->real_velocity;
	s.last_dt = c->last_dt;
	s.zone_count = c->zone_count;
	memcpy( s.zones, c->zones, sizeof( s.zones ) );
	s.internal_cookie = KCC_STATE_COOKIE;
	return s;
}

kcc_status kcc_controller_set_state( kcc_controller* c, const kcc_controller_state* state )
{
	if ( KCC_USABLE( c, "kcc_controller_set_state" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	KCC_ASSERT( state != NULL, "kcc_controller_set_state: state is NULL" );
	if ( state == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( state->internal_cookie != KCC_STATE_COOKIE )
	{
		KCC_ASSERT( false, "kcc_controller_set_state: state was not made by kcc_controller_get_state" );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	bool finite = kcc_is_valid_vec2( state->floor_normal ) && kcc_is_valid_vec2( state->up ) &&
				  kcc_is_valid_vec2( state->wall_normal ) && kcc_is_valid_vec2( state->belt_velocity ) &&
				  kcc_is_valid_vec2( state->carry_anchor ) && kcc_is_valid_vec2( state->platform_velocity ) &&
				  kcc_is_valid_vec2( state->real_velocity ) && kcc_is_valid_float( state->last_dt ) &&
				  isfinite( state->platform_position.x ) && isfinite( state->platform_position.y ) &&
				  isfinite( state->platform_angle );
	for ( int i = 0; i < KCC_MAX_SUPPORTS; ++i )
	{
		finite = finite && kcc_is_valid_vec2( state->supports[i] );
	}
	if ( finite == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	kcc_shape local;
	const char* shape_problem = kcc_shape_fits( &c->def, &state->shape, &local );
	bool in_range = ( state->flags & ~KCC_ALL_FLAGS ) == 0 && kcc_is_unit_direction( state->floor_normal ) &&
					kcc_is_unit_direction( state->up ) && state->last_dt >= 0.0f && state->zone_count >= 0 &&
					state->zone_count <= KCC_MAX_ZONES && state->support_count >= 0 &&
					state->support_count <= KCC_MAX_SUPPORTS && shape_problem == NULL &&
					( state->mode == KCC_MODE_GROUNDED || state->mode == KCC_MODE_FLOATING );
	if ( in_range == false )
	{
		KCC_ASSERT( false, "kcc_controller_set_state: a field out of range (a corrupted state)" );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	kcc_status status = kcc_validate_position( c, state->position );
	if ( status != KCC_OK )
	{
		return status;
	}
	status = KCC_SPACE_ACQUIRE( c, "kcc_controller_set_state" );
	if ( status != KCC_OK )
	{
		return status;
	}
	// A snapshot's shape is a byte copy of the def's: equal bytes, the same shape (no new cpShape).
	bool new_shape = memcmp( &state->shape, &c->def.shape, sizeof( state->shape ) ) != 0;
	if ( new_shape || state->up.x != c->def.up.x || state->up.y != c->def.up.y )
	{
		kcc_shape previous = c->local_shape;
		vec2s previous_up = c->def.up;
		c->def.up = state->up;
		kcc_use_shape( c, &local );
		if ( new_shape && kcc_world_replace_shape( c ) == false )
		{
			c->def.up = previous_up;
			kcc_use_shape( c, &previous );
			kcc_space_release( c );
			return KCC_ERROR_INVALID_ARGUMENT;
		}
		c->def.shape = state->shape;
	}
	c->def.mode = state->mode;
	c->position = state->position;
	c->flags = state->flags;
	c->floor_normal = state->floor_normal;
	c->support_count = state->support_count;
	memcpy( c->supports, state->supports, sizeof( c->supports ) );
	c->floor_shape = state->floor_shape;
	c->wall_normal = state->wall_normal;
	c->floor_one_way = state->floor_one_way;
	c->drop_shape = state->drop_shape;
	c->one_way_inside = state->one_way_inside;
	c->platform = state->platform;
	c->platform_position = state->platform_position;
	c->platform_angle = state->platform_angle;
	c->carry_anchor = state->carry_anchor;
	c->platform_velocity = state->platform_velocity;
	c->belt_velocity = state->belt_velocity;
	c->real_velocity = state->real_velocity;
	c->last_dt = state->last_dt;
	c->zone_count = state->zone_count;
	memcpy( c->zones, state->zones, sizeof( c->zones ) );
	kcc_world_sync_body( c );
	kcc_space_release( c );
	return KCC_OK;
}

const char* kcc_status_string( kcc_status s )
{
	switch ( s )
	{
		case KCC_OK:
			return "ok";
		case KCC_ERROR_NULL_ARGUMENT:
			return "a required pointer was NULL";
		case KCC_ERROR_NOT_FINITE:
			return "an input had a NaN or infinite component";
		case KCC_ERROR_TOO_LARGE:
			return "a displacement or position beyond the def's limits (max_displacement, max_coordinate)";
		case KCC_ERROR_INVALID_ARGUMENT:
			return "an argument out of range (dt < 0, a foreign state snapshot)";
		case KCC_ERROR_SPACE_LOCKED:
			return "the cpSpace is locked: called from a Chipmunk callback, or another thread uses the space";
		case KCC_ERROR_BLOCKED:
			return "blocked: the new shape would overlap a solid here";
		case KCC_ERROR_NOT_ON_ONE_WAY:
			return "not standing on a one-way shape (kcc_controller_drop_through)";
		default:
			return "unknown status";
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Shape and up at run time

kcc_status kcc_controller_set_shape( kcc_controller* c, const kcc_shape* shape )
{
	if ( KCC_USABLE( c, "kcc_controller_set_shape" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	KCC_ASSERT( shape != NULL, "kcc_controller_set_shape: shape is NULL" );
	if ( shape == NULL )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	kcc_shape local;
	const char* problem = kcc_shape_fits( &c->def, shape, &local );
	KCC_ASSERT( problem == NULL, problem );
	if ( problem != NULL )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	kcc_status status = KCC_SPACE_ACQUIRE( c, "kcc_controller_set_shape" );
	if ( status != KCC_OK )
	{
		return status;
	}
	c->move->origin = c->position;
	if ( kcc_overlaps_solid( c, &local, kcc_v2( 0.0f, 0.0f ), true ) )
	{
		kcc_space_release( c );
		return KCC_ERROR_BLOCKED;
	}
	kcc_shape previous = c->local_shape;
	kcc_use_shape( c, &local );
	if ( kcc_world_replace_shape( c ) == false )
	{
		kcc_use_shape( c, &previous );
		kcc_space_release( c );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	c->def.shape = *shape;
	kcc_space_release( c );
	return KCC_OK;
}

kcc_status kcc_controller_set_up( kcc_controller* c, vec2s up )
{
	if ( KCC_USABLE( c, "kcc_controller_set_up" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( kcc_is_valid_vec2( up ) == false )
	{
		return KCC_ERROR_NOT_FINITE;
	}
	if ( kcc_is_unit_direction( up ) == false )
	{
		KCC_ASSERT( false, "kcc_controller_set_up: up must be a unit vector" );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	c->def.up = glms_vec2_normalize( up );
	kcc_use_shape( c, &c->local_shape );
	kcc_forget_floor( c );
	return KCC_OK;
}

kcc_status kcc_controller_set_mode( kcc_controller* c, kcc_motion_mode mode )
{
	if ( KCC_USABLE( c, "kcc_controller_set_mode" ) == false )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	if ( mode != KCC_MODE_GROUNDED && mode != KCC_MODE_FLOATING )
	{
		KCC_ASSERT( false, "kcc_controller_set_mode: mode must be KCC_MODE_GROUNDED or KCC_MODE_FLOATING" );
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	c->def.mode = mode;
	kcc_forget_floor( c );
	return KCC_OK;
}

kcc_motion_mode kcc_controller_get_mode( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_mode" ) ? c->def.mode : KCC_MODE_GROUNDED;
}

const char* kcc_flag_string( uint32_t flag )
{
	switch ( flag )
	{
		case KCC_ON_FLOOR:
			return "KCC_ON_FLOOR";
		case KCC_ON_WALL:
			return "KCC_ON_WALL";
		case KCC_ON_CEILING:
			return "KCC_ON_CEILING";
		case KCC_SNAPPED:
			return "KCC_SNAPPED";
		case KCC_STEPPED:
			return "KCC_STEPPED";
		case KCC_DEPENETRATED:
			return "KCC_DEPENETRATED";
		case KCC_CRUSHED:
			return "KCC_CRUSHED";
		case KCC_HIT_LIMIT:
			return "KCC_HIT_LIMIT";
		case KCC_CANDIDATES_TRUNCATED:
			return "KCC_CANDIDATES_TRUNCATED";
		case KCC_SENSOR_EVENTS_TRUNCATED:
			return "KCC_SENSOR_EVENTS_TRUNCATED";
		case KCC_PUSHED:
			return "KCC_PUSHED";
		case KCC_CORNER_CORRECTED:
			return "KCC_CORNER_CORRECTED";
		default:
			return "unknown flag";
	}
}

vec2s kcc_controller_get_up( const kcc_controller* c )
{
	return KCC_USABLE( c, "kcc_controller_get_up" ) ? c->def.up : kcc_v2( 0.0f, 1.0f );
}
