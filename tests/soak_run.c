// SPDX-License-Identifier: MIT
// The soak's loop (soak_world.h): the actions a game takes, the checks after each, failure reports and statistics.
#include "soak_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
		case 3: // dt == 0 is a paused frame, a negative one however small an error
			status = kcc_controller_move_and_slide( c, kcc_v2( 1.0f, 0.0f ), -1.0e-30f, &v, &result );
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
	soak_check check = soak_check_character( w, index, NULL, NULL, 0 );
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

// The crates' bodies as a move may change them (a push moves kinematic ones, an impulse changes dynamic ones).
typedef struct soak_crate_pose
{
	cpVect position, velocity;
	double angle, spin;
} soak_crate_pose;

static void soak_crates_save( const soak_world* w, soak_crate_pose* out )
{
	for ( int i = 0; i < w->crate_count; ++i )
	{
		out[i].position = cpBodyGetPosition( w->crates[i] );
		out[i].velocity = cpBodyGetVelocity( w->crates[i] );
		out[i].angle = cpBodyGetAngle( w->crates[i] );
		out[i].spin = cpBodyGetAngularVelocity( w->crates[i] );
	}
}

static void soak_crates_restore( soak_world* w, const soak_crate_pose* poses )
{
	for ( int i = 0; i < w->crate_count; ++i )
	{
		cpBodySetPosition( w->crates[i], poses[i].position );
		cpBodySetVelocity( w->crates[i], poses[i].velocity );
		cpBodySetAngle( w->crates[i], poses[i].angle );
		cpBodySetAngularVelocity( w->crates[i], poses[i].spin );
		cpSpaceReindexShapesForBody( w->space, w->crates[i] );
	}
}

static kcc_status soak_call( kcc_controller* c, soak_case_call call, vec2s delta, float dt, vec2s* velocity,
							 kcc_move_result* result )
{
	return call == SOAK_CALL_MOVE ? kcc_controller_move( c, delta, result )
								  : kcc_controller_move_and_slide( c, delta, dt, velocity, result );
}

static soak_pose soak_body_pose( const cpBody* body )
{
	cpVect p = cpBodyGetPosition( body );
	return ( soak_pose ){ p.x, p.y, cpBodyGetAngle( body ) };
}

// The move played again from the state before it, with the crates put back: bit-identical or a mismatch.
static void soak_replay( soak_world* w, int index, const kcc_controller_state* before, const soak_crate_pose* poses,
						 soak_case_call call, vec2s delta, float dt, kcc_status status, vec2s velocity,
						 const kcc_move_result* result, const soak_run_config* config, soak_stats* stats )
{
	soak_character* ch = &w->characters[index];
	soak_crate_pose after[SOAK_MAX_CRATES];
	soak_crates_save( w, after );
	kcc_controller_state state_after = kcc_controller_get_state( ch->c );
	if ( kcc_controller_set_state( ch->c, before ) != KCC_OK )
	{
		return;
	}
	soak_crates_restore( w, poses );
	kcc_move_result again;
	vec2s velocity_again = kcc_v2( 0.0f, 0.0f );
	kcc_status status_again = soak_call( ch->c, call, delta, dt, &velocity_again, &again );
	soak_crate_pose replayed[SOAK_MAX_CRATES];
	soak_crates_save( w, replayed );
	stats->replays += 1;
	bool same = status == status_again && memcmp( &result->position, &again.position, sizeof( vec2s ) ) == 0 &&
				memcmp( &velocity, &velocity_again, sizeof( vec2s ) ) == 0 && result->flags == again.flags &&
				result->collision_count == again.collision_count;
	for ( int i = 0; i < w->crate_count && same; ++i )
	{
		same = memcmp( &after[i].position, &replayed[i].position, sizeof( cpVect ) ) == 0 &&
			   memcmp( &after[i].velocity, &replayed[i].velocity, sizeof( cpVect ) ) == 0;
	}
	if ( same == false )
	{
		stats->replay_mismatches += 1;
		if ( config->log != NULL )
		{
			fprintf( config->log, "soak: world %llu frame %d character %d: the move replayed from its state ended "
								  "elsewhere (%a, %a) / (%a, %a), flags 0x%x / 0x%x\n",
					 (unsigned long long)stats->worlds, w->frame, index, (double)result->position.x,
					 (double)result->position.y, (double)again.position.x, (double)again.position.y,
					 (unsigned)result->flags, (unsigned)again.flags );
		}
		// Go on from the first outcome.
		soak_crates_restore( w, after );
		kcc_controller_set_state( ch->c, &state_after );
	}
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
			// Half the time at a crate, when there are some: pushes are what the crates are for.
			int i = w->crate_count > 0 && soak_chance( src, 0.5 ) ? w->crate_shapes[soak_int( src, w->crate_count )]
																	: soak_int( src, w->shape_count );
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
		{
			// The floor the controller stands on now: ch->floor_shape is the last move's, and a create, a teleport or
			// a restored state since may have found another.
			kcc_controller_state now = kcc_controller_get_state( c );
			if ( kcc_controller_drop_through( c ) == KCC_OK )
			{
				ch->drop_shape = now.floor_shape;
			}
			call = SOAK_CALL_MOVE_AND_SLIDE;
			delta = soak_gravity_velocity( src, ch, &dt );
			break;
		}
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
				ch->ride = ch->snapshot_ride;
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
		// Put on its platform since its last move (a teleport, a change of up): the platform has not moved since.
		bool placed = ch->riding == false && ch->snapshot.platform != NULL;
		ch->snapshot_ride = placed ? soak_body_pose( ch->snapshot.platform ) : ch->ride;
	}

	// The move.
	kcc_controller_state before = kcc_controller_get_state( c );
	vec2s start = before.position;
	ch->floor_shape = before.floor_shape; // a teleport or a change of up changed it
	ch->one_way_inside = before.one_way_inside;
	bool riding = ch->riding;
	kcc_move_result result;
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	int asserts = s_assert_count;
	soak_crate_pose poses[SOAK_MAX_CRATES];
	double crate_before[SOAK_MAX_CRATES];
	soak_crates_save( w, poses );
	if ( w->crate_count > 0 )
	{
		soak_crate_depths( w, index, crate_before, NULL );
	}
	kcc_status status = soak_call( c, call, delta, dt, &velocity, &result );
	stats->moves += 1;
	if ( status == KCC_OK && soak_chance( src, 0.05 ) )
	{
		soak_replay( w, index, &before, poses, call, delta, dt, status, velocity, &result, config, stats );
	}
	if ( w->crate_count > 0 )
	{
		// Every crate the move pushed: no deeper in what blocks it than before the move (property 1 for crates).
		double crate_after[SOAK_MAX_CRATES];
		int into[SOAK_MAX_CRATES];
		soak_crate_depths( w, index, crate_after, into );
		int moved = 0;
		for ( int i = 0; i < w->crate_count; ++i )
		{
			cpVect now = cpBodyGetPosition( w->crates[i] );
			if ( cpBodyGetType( w->crates[i] ) != CP_BODY_TYPE_KINEMATIC ||
				 memcmp( &poses[i].position, &now, sizeof( cpVect ) ) == 0 )
			{
				continue;
			}
			moved += 1;
			const soak_cache* cache = soak_cache_of( w, w->crate_shapes[i] );
			double height = fmin( cache->hi_x - cache->lo_x, cache->hi_y - cache->lo_y );
			double worse = crate_after[i] - fmax( crate_before[i], 0.0 );
			// A character that could not stay out of solids says so: its overlap with a crate is flagged.
			bool flagged = ( result.flags & KCC_CRUSHED ) != 0 && into[i] == ch->shape_index;
			if ( worse > SOAK_TOLERANCE * height && flagged == false )
			{
				stats->crate_overlaps += 1;
				stats->crate_worst = fmax( stats->crate_worst, worse / height );
				if ( config->log != NULL && stats->crate_overlaps <= 10 )
				{
					const soak_shape* s = &w->shapes[into[i]];
					fprintf( config->log, "soak: world %llu frame %d character %d (options 0x%x) %s: crate %d pushed "
										  "%.4g of its size deeper (%.4g before) into shape %d (roles 0x%x%s), flags "
										  "0x%x\n",
							 (unsigned long long)stats->worlds, w->frame, index, (unsigned)ch->options,
							 soak_action_name( action ), i, worse / height, crate_before[i] / height, into[i],
							 (unsigned)s->roles, into[i] == ch->shape_index ? ", the pusher" : "",
							 (unsigned)result.flags );
				}
			}
		}
		stats->pushes += moved > 0;
		stats->crate_moves += (uint64_t)moved;
	}
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
		check = soak_check_character( w, index, &start, &result, flags );
	}
	vec2s leg;
	bool carried;
	if ( status == KCC_OK && finite && soak_path_last_leg( &result, start, end, &leg, &carried ) == SOAK_PATH_BROKEN )
	{
		// The oracle judges one-way shapes at the path's last leg: a path that is not the move's is a failure.
		stats->path_mismatches += 1;
		if ( config->log != NULL )
		{
			fprintf( config->log, "soak: world %llu frame %d character %d %s: the path (%d points) does not run from "
					 "the start to the end\n", (unsigned long long)stats->worlds, w->frame, index,
					 soak_action_name( action ), result.path_count );
		}
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
	if ( ch->riding )
	{
		ch->ride = soak_body_pose( cpShapeGetBody( (cpShape*)ch->floor_shape ) );
	}
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
	fprintf( f, "soak: moves returning an error %llu, NaN %llu, wrong status or assert %llu, invalid calls %llu (%llu "
				"changed something), paths not from the start to the end %llu\n",
			 (unsigned long long)s->errors, (unsigned long long)s->nan, (unsigned long long)s->wrong_status,
			 (unsigned long long)s->bad_calls, (unsigned long long)s->moved_on_error,
			 (unsigned long long)s->path_mismatches );
	fprintf( f, "soak: set_shape %llu taken, %llu of them overlapping a solid\n", (unsigned long long)s->shape_changes,
			 (unsigned long long)s->shape_overlaps );
	fprintf( f, "soak: crates: %llu moves pushed %llu crates; %llu crates left deeper in a solid (worst %.4g of their "
				"size); replays %llu, %llu not bit-identical\n",
			 (unsigned long long)s->pushes, (unsigned long long)s->crate_moves, (unsigned long long)s->crate_overlaps,
			 s->crate_worst, (unsigned long long)s->replays, (unsigned long long)s->replay_mismatches );
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

