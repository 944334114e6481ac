// SPDX-License-Identifier: MIT
// kcc2d controller: a kinematic character on a Chipmunk cpSpace. Cast the shape along the wanted motion, stop a
// skin's width before the first blocking surface, slide the rest along it, re-cast. See docs/controller.md.
#pragma once

#include "kcc/geometry.h"

#include <chipmunk/chipmunk.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KCC_MAX_COLLISIONS 16    ///< collisions reported per move
#define KCC_MAX_SENSORS 8        ///< sensor shapes reported per move (those overlapping the final position)
#define KCC_MAX_SENSOR_EVENTS 32 ///< sensor begin / end events reported per move
#define KCC_MAX_ZONES 32         ///< sensors a character can be inside at once (tracked for the events)
#define KCC_MAX_PATH_POINTS 32   ///< positions of the path reported per move (debug drawing)
#define KCC_MAX_PUSHED_BODIES 16 ///< pushable bodies one push moves at most (a row, or a pile top-down): the push goes
								 ///< as far as it can without moving one more, whatever its length

typedef struct kcc_controller kcc_controller; ///< opaque; allocated once by kcc_controller_create

typedef enum kcc_motion_mode
{
	KCC_MODE_GROUNDED = 0, ///< platformer: floors, walls and ceilings against up
	KCC_MODE_FLOATING = 1, ///< top-down: every surface is a wall; no snapping, no steps
} kcc_motion_mode;

/// Return codes. KCC_OK is 0; errors are negative and leave the controller unchanged.
typedef enum kcc_status
{
	KCC_OK = 0,
	KCC_ERROR_NULL_ARGUMENT = -1,    ///< a required pointer was NULL
	KCC_ERROR_NOT_FINITE = -2,       ///< an input had a NaN or infinite component
	KCC_ERROR_TOO_LARGE = -3,        ///< a displacement or position beyond the def's limits
	KCC_ERROR_INVALID_ARGUMENT = -4, ///< another argument out of range (dt < 0, a foreign state snapshot)
	KCC_ERROR_SPACE_LOCKED = -5,     ///< the cpSpace is locked: called from a Chipmunk callback, or while another
									 ///< thread uses the space (one space is used by one thread at a time)
	KCC_ERROR_BLOCKED = -6,          ///< kcc_controller_set_shape: the new shape would overlap a solid here
	KCC_ERROR_NOT_ON_ONE_WAY = -7,   ///< kcc_controller_drop_through: not standing on a one-way shape
} kcc_status;

/// What leaving a moving platform does to the velocity move_and_slide returns (Godot's platform_on_leave).
typedef enum kcc_platform_leave
{
	KCC_PLATFORM_LEAVE_ADD_VELOCITY = 0,        ///< add the platform's velocity at the contact (keep its momentum)
	KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY = 1, ///< add only its positive part along up (a lift's push)
	KCC_PLATFORM_LEAVE_DO_NOTHING = 2,          ///< add nothing
} kcc_platform_leave;

typedef enum kcc_sensor_event_type
{
	KCC_SENSOR_BEGIN = 0, ///< the character started to overlap the sensor
	KCC_SENSOR_END = 1,   ///< the character stopped overlapping it (or the game removed it: shape is then an identity)
} kcc_sensor_event_type;

/// A sensor (zone) entered or left along the path the character really moved in a move.
typedef struct kcc_sensor_event
{
	cpShape* shape;
	kcc_sensor_event_type type;
	float travel; ///< distance along the move's path where it happened (events are in path order)
} kcc_sensor_event;

/// Move result flags.
enum
{
	KCC_ON_FLOOR = 1u << 0,       ///< standing on walkable ground after the move
	KCC_ON_WALL = 1u << 1,        ///< touched a surface steeper than max_floor_angle (or any, FLOATING)
	KCC_ON_CEILING = 1u << 2,     ///< touched a surface facing down
	KCC_SNAPPED = 1u << 3,        ///< snapped down to the floor after the slide
	KCC_STEPPED = 1u << 4,        ///< climbed a step
	KCC_DEPENETRATED = 1u << 5,   ///< started overlapping and was pushed out
	KCC_CRUSHED = 1u << 6,        ///< could not get out of solids in this move
	KCC_HIT_LIMIT = 1u << 7,      ///< max_slides re-casts used and motion remained
	KCC_CANDIDATES_TRUNCATED = 1u << 8, ///< more shapes than max_candidates in a region even after splitting the
										///< move into sub-moves: some shapes were not considered (raise max_candidates)
	KCC_SENSOR_EVENTS_TRUNCATED = 1u << 9, ///< more than KCC_MAX_SENSOR_EVENTS zone events in the move: the first ones
										   ///< along the path are kept, the rest dropped
	KCC_PUSHED = 1u << 10,              ///< pushed a body (pushable_categories); on a collision: that contact, which
										///< neither clips the velocity nor counts as a wall
	KCC_CORNER_CORRECTED = 1u << 11,    ///< nudged around a corner (def.corner_correction)
	KCC_ALL_FLAGS = ( 1u << 12 ) - 1u,  ///< every flag above
};

/// Must be initialised with kcc_default_controller_def().
typedef struct kcc_controller_def
{
	kcc_shape shape;        ///< character in local coordinates around position: circle, capsule, box / rounded box or
							///< convex polygon. Default: capsule (0, -0.3)..(0, 0.3), radius 0.3 (1.2 tall)
	vec2s position;         ///< initial position (world units). Default (0, 0)
	vec2s up;               ///< unit up direction. Default (0, 1)
	float skin;             ///< gap kept between the character and surfaces, world units. Default 0.01
	float min_move;         ///< displacements shorter than this are not cast, world units. Default 1e-4
	int max_slides;         ///< re-casts per move, 1..16. Default 4
	float max_floor_angle;  ///< steepest walkable slope, radians in [0, pi/2). Default 45 degrees
	float snap_distance;    ///< stick to the floor when walking down slopes and steps, world units; 0 = off.
							///< Default 0.1
	float step_height;      ///< climb steps up to this height, world units; 0 = off. Default 0
	bool stop_on_slope;     ///< no creeping down walkable slopes under gravity-only motion. Default true
	bool constant_speed_on_slopes; ///< horizontal input keeps its speed along slopes. Default false
	bool slide_on_ceiling;  ///< keep the tangential motion when hitting a ceiling. Default true
	kcc_motion_mode mode;   ///< Default KCC_MODE_GROUNDED
	cpShapeFilter filter;   ///< categories of the character and the mask of what blocks it; the group is replaced by
							///< the controller's own. Default: all categories, all mask
	cpBitmask one_way_categories;  ///< shapes in these categories block only from above (a floor contact met from
								   ///< above); passed through from below and the sides. Default 0 (none). Roles need
								   ///< an explicit category: a shape in every category (CP_ALL_CATEGORIES, Chipmunk's
								   ///< default filter) and another character are never one-way or pushable
	cpBitmask pushable_categories; ///< shapes in these categories, on kinematic bodies, are pushed by the character
								   ///< (along the push, up removed when GROUNDED, stopped by walls; a row of up to
								   ///< KCC_MAX_PUSHED_BODIES moves as one). Default 0
	float max_displacement; ///< longest displacement accepted by one move, world units. Default 1000
	float max_coordinate;   ///< largest |coordinate| accepted for positions, world units. Default 1e6
	int max_depenetration_iterations; ///< push-out rounds per move when starting inside, 1..16. Default 4
	int max_candidates;     ///< shapes one move's query may hold (a buffer the space's moves share), 16..65536;
							///< a move meeting more is split into shorter sub-moves. Default 256
	kcc_platform_leave platform_on_leave; ///< velocity handed on when leaving a moving platform. Default ADD_VELOCITY
	cpBitmask sensor_mask;  ///< sensors whose categories share a bit with this are reported (the character's filter
							///< and the sensor's own mask and group are not consulted). Default all
	float mass;             ///< kg; > 0: shapes on dynamic bodies receive the impulse of an inelastic contact with
							///< the character (move_and_slide). Default 0: they are plain obstacles
	float corner_correction; ///< world units; a move going up blocked by a ceiling's corner within this distance of
							 ///< the character's side is nudged around it (and an airborne sideways move past a
							 ///< ledge's corner, up onto it). Default 0 (off)
	float step_min_width;   ///< world units; steps are climbed only with this much free room ahead on the new
							///< floor, along the motion (Rapier's min_width). Default 0
	int internal_cookie;    ///< set by kcc_default_controller_def; do not touch
} kcc_controller_def;

/// One contact met during a move.
typedef struct kcc_collision
{
	vec2s point;    ///< on the obstacle's surface
	vec2s normal;   ///< unit, out of the obstacle toward the character
	float travel;   ///< distance the character had moved in this move when it met the contact
	cpShape* shape; ///< the obstacle (valid until the game removes it)
	uint32_t flags; ///< KCC_ON_FLOOR, KCC_ON_WALL or KCC_ON_CEILING: how the contact was classified
} kcc_collision;

typedef struct kcc_move_result
{
	vec2s position;     ///< after the move
	vec2s displacement; ///< what the character really moved
	uint32_t flags;     ///< KCC_ON_FLOOR | KCC_ON_WALL | KCC_ON_CEILING | KCC_SNAPPED | ...
	vec2s floor_normal; ///< valid when KCC_ON_FLOOR
	cpShape* floor_shape; ///< the floor's shape when KCC_ON_FLOOR
	int collision_count;
	kcc_collision collisions[KCC_MAX_COLLISIONS];
	int sensor_count;   ///< sensor shapes overlapping the final shape (the first KCC_MAX_SENSORS)
	cpShape* sensors[KCC_MAX_SENSORS];
	int sensor_event_count; ///< zones entered and left along the path, in path order
	kcc_sensor_event sensor_events[KCC_MAX_SENSOR_EVENTS];
	int path_count;         ///< the character's positions through the move: the start, then after the platform's
							///< carry, each cast, the step and the snap (the last KCC_MAX_PATH_POINTS - 1 kept);
							///< path[0] is the start and path[path_count - 1] the end, bit for bit
	vec2s path[KCC_MAX_PATH_POINTS];
} kcc_move_result;

/// Plain-data state for replays and rollback: everything a move reads. Copy it, store it, restore it with the world
/// restored too. Shape and body pointers are identities of the world's objects, never dereferenced.
typedef struct kcc_controller_state
{
	vec2s position;
	vec2s up;
	kcc_motion_mode mode;      ///< kcc_controller_set_mode
	kcc_shape shape;           ///< the character's shape (kcc_controller_set_shape)
	uint32_t flags;            ///< flags of the last move (ground state)
	vec2s floor_normal;
	int support_count;         ///< the floors the last move stood on (for the next move's snap)
	vec2s supports[4];
	cpShape* floor_shape;       ///< the floor of the last move (identity only: never dereferenced)
	vec2s wall_normal;         ///< of the last move's wall contact, when KCC_ON_WALL
	bool floor_one_way;
	cpShape* drop_shape; ///< the one-way shape being dropped through
	bool one_way_inside;       ///< the last move ended inside a one-way shape (passing through it)
	const cpBody* platform;    ///< the kinematic body stood on after the last move, and its pose then
	cpVect platform_position;
	double platform_angle;
	vec2s carry_anchor;
	vec2s platform_velocity;
	vec2s belt_velocity;       ///< the floor's surface velocity along it (a conveyor belt)
	vec2s real_velocity;
	float last_dt;
	int zone_count;            ///< the sensors the character is inside
	cpShape* zones[KCC_MAX_ZONES];
	int internal_cookie;
} kcc_controller_state;

KCC_API kcc_controller_def kcc_default_controller_def( void );

/// Creates the controller and adds its kinematic body and shape to space. NULL when space or def is NULL, def was
/// not made by kcc_default_controller_def, or a field is out of range (a debug build asserts naming the field;
/// kcc_controller_def_problem says which in any build).
/// Lifetime: space is borrowed and must outlive the controller (destroy controllers before cpSpaceFree); the body and
/// shape the controller adds are its own (kcc_controller_destroy removes and frees them); the world's shapes and
/// bodies stay the game's: results and states name them as identities, never dereferenced after the game removes
/// them (a removed platform or zone is simply gone from the next move).
KCC_API kcc_controller* kcc_controller_create( cpSpace* space, const kcc_controller_def* def );

/// NULL when def is acceptable, otherwise a message naming the bad field.
KCC_API const char* kcc_controller_def_problem( const kcc_controller_def* def );

/// Removes the controller's body and shape from the space and frees them. NULL is a no-op. Called from a Chipmunk
/// callback (the space locked: a query's or cpSpaceStep's), where Chipmunk can not remove bodies, it is done when
/// the space unlocks (Chipmunk's post-step callback): the character is gone from the space when the query or step
/// returns. Either way the handle is dead when this call returns.
KCC_API void kcc_controller_destroy( kcc_controller* c );

/// Moves by delta (world units): carry, cast, slide, snap, step. out is optional. Errors change nothing. With no time
/// step, it is not carried by a conveyor belt (a floor's surface velocity): kcc_controller_move_and_slide is.
KCC_API kcc_status kcc_controller_move( kcc_controller* c, vec2s delta, kcc_move_result* out );

/// Velocity-level move in the style of Godot's move_and_slide: moves by velocity * dt, then returns in
/// out_velocity the velocity with the components that pushed into surfaces removed: every surface met in the move,
/// also when out has no room to report them all (KCC_MAX_COLLISIONS). dt >= 0, seconds: dt == 0 is a
/// paused frame (nothing moves, KCC_OK, out_velocity = velocity, out reports the last move's ground state).
/// Standing on a conveyor belt (a static or kinematic shape with a Chipmunk surface velocity), the character is first
/// carried by the belt's velocity along the floor over dt, stopped by walls; leaving it into the air hands that
/// velocity on per def.platform_on_leave, as leaving a moving platform does.
KCC_API kcc_status kcc_controller_move_and_slide( kcc_controller* c, vec2s velocity, float dt, vec2s* out_velocity,
												  kcc_move_result* out );

/// The velocity of the floor body at the contact (its motion between the last two moves divided by the dt of the
/// last move_and_slide; a platform moved by setting its position has one too), plus a conveyor belt's: the floor
/// shape's Chipmunk surface velocity (cpShapeSetSurfaceVelocity), its part along the floor. Zero unless the last move
/// ended on a kinematic body's shape or on a static or kinematic shape with a surface velocity.
KCC_API vec2s kcc_controller_get_platform_velocity( const kcc_controller* c );

/// The last move_and_slide's displacement, the platform's carry included, divided by its dt (Godot's
/// get_real_velocity).
KCC_API vec2s kcc_controller_get_real_velocity( const kcc_controller* c );

/// Changes the character's shape (crouch, stand up, power-up), keeping its position: KCC_ERROR_BLOCKED and no change
/// when the new shape there would overlap a solid (one-way shapes excepted): "can I stand up here?". The
/// controller's cpShape is replaced (kcc_controller_get_shape returns the new one).
KCC_API kcc_status kcc_controller_set_shape( kcc_controller* c, const kcc_shape* shape );

/// Changes up (gravity flip, walking on walls): floors, snapping and steps follow it from the next move; the ground
/// state is cleared.
KCC_API kcc_status kcc_controller_set_up( kcc_controller* c, vec2s up );
KCC_API vec2s kcc_controller_get_up( const kcc_controller* c );

/// Changes the motion mode (a door from a platformer level into a top-down room); the ground state is cleared.
KCC_API kcc_status kcc_controller_set_mode( kcc_controller* c, kcc_motion_mode mode );
KCC_API kcc_motion_mode kcc_controller_get_mode( const kcc_controller* c );

/// Drop through the one-way shape the character stands on (KCC_ON_FLOOR on a shape in one_way_categories): it is
/// ignored from the next move on until the character is clear of it. KCC_ERROR_NOT_ON_ONE_WAY (nothing changes)
/// when not standing on one (in the air, on a solid floor).
KCC_API kcc_status kcc_controller_drop_through( kcc_controller* c );

KCC_API vec2s kcc_controller_get_position( const kcc_controller* c );
/// Teleports (no cast); clears the ground state.
KCC_API kcc_status kcc_controller_set_position( kcc_controller* c, vec2s p );

/// Flags of the last move (KCC_ON_FLOOR ...).
KCC_API uint32_t kcc_controller_get_flags( const kcc_controller* c );
KCC_API bool kcc_controller_is_on_floor( const kcc_controller* c );
/// The last move met a wall (KCC_ON_WALL: steeper than max_floor_angle; FLOATING: any surface).
KCC_API bool kcc_controller_is_on_wall( const kcc_controller* c );
/// The last move met a ceiling (KCC_ON_CEILING).
KCC_API bool kcc_controller_is_on_ceiling( const kcc_controller* c );
/// The floor's unit normal after the last move; (0, 0) when not on a floor.
KCC_API vec2s kcc_controller_get_floor_normal( const kcc_controller* c );
/// The unit normal of the last move's wall contact (the last one met when there were several); (0, 0) if none.
KCC_API vec2s kcc_controller_get_wall_normal( const kcc_controller* c );
/// The floor's shape after the last move (an identity: do not use it after the game removed it); NULL when not on a
/// floor.
KCC_API const cpShape* kcc_controller_get_floor_shape( const kcc_controller* c );

/// Would the character hit something moving by delta from where it stands now (Godot's test_move, Box2D's
/// b2World_CastMover)? The first blocking contact of a straight cast along delta, found with the same candidates and
/// rules as a move (filter, one-way shapes, the shape being dropped through, sensors ignored, skin): nothing is
/// moved, pushed, carried or reported, and the controller's state does not change (a platform's motion since the
/// last move is not applied, nor a push out of an overlap). True: *hit is filled: travel is how far the character
/// can go along delta before the contact, the skin kept; flags classify it (KCC_ON_FLOOR, KCC_ON_WALL or
/// KCC_ON_CEILING, with KCC_PUSHED for a crate in pushable_categories, which a move would try to push). False when
/// nothing blocks, and on bad input (a NULL controller, a non-finite delta, one beyond max_displacement or ending
/// beyond max_coordinate; a build with asserts names it); *hit is then zeroed. hit may be NULL.
KCC_API bool kcc_controller_test_move( kcc_controller* c, vec2s delta, kcc_collision* hit );

/// The controller's own kinematic body and shape in the space, owned by the controller: valid until
/// kcc_controller_destroy (the shape until kcc_controller_set_shape replaces it); do not free them, move the body,
/// change its type, add shapes to it, or change the shape's filter or sensor flag (batches take them from the
/// controller, not from Chipmunk; a build with asserts checks). The shape's user data is the controller.
KCC_API cpBody* kcc_controller_get_body( kcc_controller* c );
KCC_API cpShape* kcc_controller_get_shape( kcc_controller* c );

/// Static shapes (on static bodies, the space's own included) are the level: the first controller created on a space
/// reads them once into an index of kcc2d's own (their shapes already converted), shared by the space's controllers
/// and freed with the last of them; moves answer their static query from it without touching Chipmunk. Call this
/// after adding, removing, moving or changing (filter, sensor) static shapes, as Chipmunk asks for
/// cpSpaceReindexStatic after moving them (the level loader and kcc_level_destroy call it themselves). Until it is
/// called, moves see the old static shapes; the index never dereferences a cpShape it holds (a removed one is only an
/// identity in collision reports). It rereads every static shape (it allocates, through kcc_set_allocator's hooks):
/// call it between frames, not while a move runs on the space. Nothing happens when no controller uses the space.
KCC_API void kcc_space_static_changed( cpSpace* space );

/// The cheap form of kcc_space_static_changed for one removed static shape (a tile broken in a game): call it after
/// cpSpaceRemoveShape and before cpShapeFree (it reads the shape's bounding box to find it). No allocation; about a
/// microsecond where kcc_space_static_changed rereads the whole level. Nothing happens for a shape not in the index.
KCC_API void kcc_space_static_shape_removed( cpSpace* space, cpShape* shape );

/// Adds count static shapes to the space (cpSpaceAddShape), in an order that keeps Chipmunk's default bounding box
/// tree shallow, then calls kcc_space_static_changed. That tree inserts each shape into what is built so far and
/// never rebalances: tiles added one by one in rows make it deep, and then every move and query on the space walks
/// much of it (4x the cost of a move on 10,000 tiles). The spatial hash (cpSpaceUseSpatialHash) does not care about
/// the order. Each shape must be on a static body already in the space (the space's own static body included) and in
/// no space yet. Any bad input (a NULL, a shape given twice or already added, a locked space): an error, and nothing
/// is added. The level loader adds its static shapes this way.
KCC_API kcc_status kcc_space_add_static_shapes( cpSpace* space, cpShape* const* shapes, int count );

/// A task system in Box2D v3's model, for kcc_move_and_slide_batch: kcc2d starts no thread of its own; a game brings
/// its job system through these calls (or uses kcc_thread_pool).
typedef void kcc_task_fcn( int start, int end, int worker, void* task_context );
typedef struct kcc_task_system
{
	int worker_count; ///< >= 1; workers are numbered 0 .. worker_count - 1 (the worker argument of kcc_task_fcn)
	/// Runs task over [0, item_count) in ranges of at least min_range items, each range on one worker (a worker
	/// number never runs two ranges at once: kcc2d may keep scratch per worker); returns a handle for finish, or NULL
	/// when it already ran it all.
	void* ( *enqueue )( kcc_task_fcn* task, int item_count, int min_range, void* task_context, void* user );
	/// Waits until the task of that handle is done; what its ranges wrote is then visible to the caller.
	void ( *finish )( void* handle, void* user );
	void* user;
} kcc_task_system;

/// Tasks a kcc_thread_pool holds enqueued and not yet finished; one more runs at once in enqueue (handle NULL).
#define KCC_THREAD_POOL_MAX_TASKS 64

/// A ready thread pool for games without a job system. Its task system: worker 0 is the thread that calls enqueue and
/// finish (one thread at a time, never from inside one of the pool's tasks); it runs ranges of the task it finishes.
/// Workers 1 .. thread_count - 1 are the pool's own threads, each always the same thread, so a worker number never runs
/// two ranges at once. Each worker runs its own share of a task's ranges first (worker w: the w-th of thread_count
/// equal contiguous parts of the items, in every task with a range for each worker), then helps with the others': the
/// same batch frame after frame checks, lists and moves each character on the same thread, where its memory stays in
/// that core's cache. A task too small for two ranges (item_count < 2 * min_range), or on a pool of one worker, runs
/// at once in enqueue on the calling thread (handle NULL). Several tasks may be enqueued before their finish calls, in
/// any order. Everything a task wrote is visible to the caller when finish returns. Idle threads poll for up to 0.3 ms
/// (10 us for a thread whose tasks keep coming far apart), then sleep. No allocation per task.
typedef struct kcc_thread_pool kcc_thread_pool;
/// A pool of thread_count workers (>= 1): the calling thread is one of them, so it starts thread_count - 1 threads.
/// It allocates once, through kcc_set_allocator's hooks. NULL on failure (out of memory, a thread that could not be
/// started: nothing is left behind) or when thread_count < 1.
KCC_API kcc_thread_pool* kcc_thread_pool_create( int thread_count );
/// Stops and joins the pool's threads. Finish every task first. NULL is a no-op.
KCC_API void kcc_thread_pool_destroy( kcc_thread_pool* pool );
/// The pool as a task system (valid until the pool is destroyed). Its finish( NULL ) does nothing.
KCC_API kcc_task_system kcc_thread_pool_task_system( kcc_thread_pool* pool );

/// Moves count characters of one space by velocities[i] * dt, as kcc_controller_move_and_slide on each in array
/// order: every result (positions, returned velocities, flags, collisions, sensor events, pushed crates, impulses, the
/// space's bodies afterwards) is bit-identical to those calls, for any worker count. Characters far enough apart not
/// to affect each other move in parallel on tasks' workers, the others in array order. out_velocities and out_results
/// may be NULL (else count entries each); tasks NULL: the calling thread alone. Any bad input (a NULL or destroyed
/// controller, characters of different spaces, a non-finite velocity, dt < 0 or not finite, a displacement beyond a
/// def's max_displacement or ending beyond its max_coordinate, a locked space): an error, and nothing moves; the
/// controllers are checked first, then the moves in array order, so the error is the same for any worker count.
/// The batch reads the space's kinematic and dynamic bodies (sleeping ones included) once when it starts: bodies and
/// shapes must not be added, removed or moved by anything else while it runs, and shapes on a non-static body that was
/// never added to the space are not seen by its moves. During the batch, each character reads the others and the
/// crates pushed where they are, as sequential calls do; Chipmunk's own index (cpSpaceBBQuery, cpSpaceStep, the
/// game's queries) is updated once, when the batch returns: by then every body it moved is reindexed where it ended
/// (unless kcc_space_set_deferred_sync asked otherwise). The batch allocates only when a space has more bodies, shapes
/// or characters than any batch on it before.
KCC_API kcc_status kcc_move_and_slide_batch( kcc_controller* const* controllers, int count, const vec2s* velocities,
											 float dt, vec2s* out_velocities, kcc_move_result* out_results,
											 const kcc_task_system* tasks );

/// deferred true: the space's batches no longer update Chipmunk's index when they return; the bodies they moved
/// (positions and cached bounding boxes already right) wait until kcc_space_sync, the next move on the space that
/// is not a batch (it syncs first), or cpSpaceStep (which reindexes every non-static shape itself). Chipmunk's
/// queries run before one of those may miss a moved character or crate (cpSpaceBBQuery and the like), so call
/// kcc_space_sync before your own. It saves the batch the reindex of every body it moved: about a fifth of the batch's
/// cost, with the spatial hash and Chipmunk's default tree alike. The moves' results are unchanged; the space after
/// cpSpaceStep is bit-identical to sequential calls' when kcc_space_sync runs before the step. false (the default)
/// syncs what is pending first. KCC_ERROR_INVALID_ARGUMENT when no controller uses the space (create one first); the
/// setting lives as long as the space has a controller.
KCC_API kcc_status kcc_space_set_deferred_sync( cpSpace* space, bool deferred );
/// Reindexes, in Chipmunk's index, every body deferred batches moved and that is still in the space, in the order
/// sequential calls would have. Nothing to do (KCC_OK) when nothing is pending. KCC_ERROR_SPACE_LOCKED from a
/// Chipmunk callback.
KCC_API kcc_status kcc_space_sync( cpSpace* space );

KCC_API kcc_controller_state kcc_controller_get_state( const kcc_controller* c );
KCC_API kcc_status kcc_controller_set_state( kcc_controller* c, const kcc_controller_state* state );

KCC_API const char* kcc_status_string( kcc_status s );
/// The name of one flag ("KCC_ON_FLOOR"), "unknown flag" for anything else.
KCC_API const char* kcc_flag_string( uint32_t flag );

/// Reindexes the shapes of a body the game moved by setting its position or angle (a platform, a door): use it
/// where Chipmunk asks for cpSpaceReindexShapesForBody. Chipmunk's spatial hash keeps the old entries of a
/// reindexed shape in their cells until a query passes there or cpSpaceStep rebuilds the hash; this call clears
/// them, so a game that never calls cpSpaceStep keeps a flat frame cost. KCC_ERROR_SPACE_LOCKED from a callback.
KCC_API kcc_status kcc_space_reindex_body( cpSpace* space, cpBody* body );

/// Spawning: where a character of def stands on the floor below point (a spawn point, on or above the floor). The
/// character, its lowest point a skin above point, drops straight down along -def->up by at most max_drop, as one
/// cast of a move (the def's filter and one-way categories, sensors ignored, a shallow overlap at the point pushed
/// out) and stops a skin above the first floor: ground, a slope, a platform or a crate. Nothing in the space moves.
/// KCC_OK and *position (for def.position); KCC_ERROR_BLOCKED when no walkable floor is within max_drop or the
/// character has no room there; KCC_ERROR_INVALID_ARGUMENT for a def kcc_controller_def_problem refuses or
/// max_drop < 0. *position changes only on KCC_OK.
KCC_API kcc_status kcc_place_on_floor( cpSpace* space, const kcc_controller_def* def, vec2s point, float max_drop,
									   vec2s* position );

#ifdef __cplusplus
}
#endif
