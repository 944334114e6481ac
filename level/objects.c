// SPDX-License-Identifier: MIT
// Object layers. Pass 1 (while walking the layers) reads every object into a raw record with its geometry in
// world units. Pass 2 (after every layer, because a platform's path may be anywhere in the map) gives each object
// its kind from its class, resolves platforms' paths, and turns geometry into shape descriptions: static shapes,
// one-way shapes, sensors for zones, kinematic bodies for platforms and crates.
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static kcc_level_object_kind kcc_kind_of_class( const char* name, bool* known )
{
	static const struct
	{
		const char* name;
		kcc_level_object_kind kind;
	} classes[] = { { "solid", KCC_LEVEL_SOLID },       { "one_way", KCC_LEVEL_ONE_WAY }, { "platform", KCC_LEVEL_PLATFORM },
					{ "zone", KCC_LEVEL_ZONE },         { "spawn", KCC_LEVEL_SPAWN },     { "crate", KCC_LEVEL_CRATE },
					{ "path", KCC_LEVEL_PATH } };
	for ( size_t i = 0; i < sizeof( classes ) / sizeof( classes[0] ); ++i )
	{
		if ( strcmp( name, classes[i].name ) == 0 )
		{
			*known = true;
			return classes[i].kind;
		}
	}
	*known = false;
	return KCC_LEVEL_OTHER;
}

static kcc_dbox kcc_pieces_bounds( const kcc_loader* L, int first, int count, kcc_dvec2 fallback )
{
	kcc_dbox b = { fallback, fallback };
	bool any = false;
	for ( int i = first; i < first + count; ++i )
	{
		const kcc_piece* piece = KCC_LIST_AT( L->pieces, kcc_piece, i );
		kcc_dvec2 lo, hi;
		if ( piece->kind == KCC_PIECE_CIRCLE )
		{
			lo = ( kcc_dvec2 ){ piece->center.x - piece->radius, piece->center.y - piece->radius };
			hi = ( kcc_dvec2 ){ piece->center.x + piece->radius, piece->center.y + piece->radius };
			b.min = any ? ( kcc_dvec2 ){ fmin( b.min.x, lo.x ), fmin( b.min.y, lo.y ) } : lo;
			b.max = any ? ( kcc_dvec2 ){ fmax( b.max.x, hi.x ), fmax( b.max.y, hi.y ) } : hi;
			any = true;
			continue;
		}
		for ( int k = 0; k < piece->count; ++k )
		{
			kcc_dvec2 p = *KCC_LIST_AT( L->points, kcc_dvec2, piece->first + k );
			b.min = any ? ( kcc_dvec2 ){ fmin( b.min.x, p.x ), fmin( b.min.y, p.y ) } : p;
			b.max = any ? ( kcc_dvec2 ){ fmax( b.max.x, p.x ), fmax( b.max.y, p.y ) } : p;
			any = true;
		}
	}
	return b;
}

// A tile object: the tile's collision pieces (or its rectangle when it has none), flipped, stretched to the
// object's size, placed by the tileset's alignment, rotated about (x, y).
static kcc_level_status kcc_read_tile_object( kcc_loader* L, const cJSON* object, const kcc_affine* outer,
											  kcc_raw_object* raw, kcc_dvec2* point )
{
	double gid_value, x, y, w, h, rotation;
	if ( kcc_json_int( L, object, "gid", true, 0.0, 0.0, 4294967295.0, &gid_value ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "x", false, 0.0, &x ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "y", false, 0.0, &y ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "width", false, 0.0, &w ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "height", false, 0.0, &h ) != KCC_LEVEL_OK ||
		 kcc_json_number( L, object, "rotation", false, 0.0, &rotation ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	uint32_t raw_gid = (uint32_t)gid_value;
	uint32_t gid = raw_gid & KCC_GID_MASK;
	int local = 0;
	int mark = kcc_text_push( &L->what, ", ", "gid %u", (unsigned)gid );
	const kcc_tileset* set = gid != 0 ? kcc_find_tileset( L, gid, &local ) : NULL;
	if ( gid == 0 )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a tile object's gid must not be 0" );
	}
	kcc_text_pop( &L->what, mark );
	if ( set == NULL )
	{
		return L->status;
	}
	const kcc_tile_info* tile = kcc_tile_of( set, local );
	kcc_tile_frame frame = kcc_tile_frame_of( set, tile, raw_gid );
	w = w > 0.0 ? w : frame.w;
	h = h > 0.0 ? h : frame.h;
	// tile pixels -> flipped -> stretched to w x h -> aligned on (x, y) -> rotated about it -> the layer's map.
	kcc_affine stretch = { w / frame.box_w, 0.0, 0.0, h / frame.box_h, -set->anchor.x * w, -set->anchor.y * h, false };
	kcc_affine stretched = kcc_affine_compose( &stretch, &frame.flip );
	kcc_affine place = kcc_affine_rotation( rotation, x, y );
	kcc_affine local_map = kcc_affine_compose( &place, &stretched );
	kcc_affine m = kcc_affine_compose( outer, &local_map );
	*point = kcc_affine_apply( L, outer, ( kcc_dvec2 ){ x, y } );
	raw->tile_without_shapes = tile == NULL || ( tile->piece_count == 0 && tile->full == false );
	return kcc_place_tile( L, tile, &frame, &m, &L->pieces, &L->points );
}

// One object of an object layer into a raw record: its names, class, geometry (world units) and properties.
static kcc_level_status kcc_read_object( kcc_loader* L, const cJSON* object, int layer_index, const char* layer_name,
										 const char* layer_class, const kcc_affine* outer, bool collision )
{
	double id = 0.0;
	const char* name = "";
	const char* class_name = "";
	if ( kcc_json_int( L, object, "id", false, 0.0, 0.0, 2147483647.0, &id ) != KCC_LEVEL_OK ||
		 kcc_json_string( L, object, "name", false, &name ) != KCC_LEVEL_OK ||
		 kcc_json_class( L, object, &class_name ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	int what_mark = kcc_text_push( &L->what, ", ", "object %d%s%s%s", (int)id, name[0] != '\0' ? " '" : "", name,
								   name[0] != '\0' ? "'" : "" );
	kcc_raw_object* raw = kcc_list_push( &L->objects, sizeof( kcc_raw_object ), 1 );
	if ( raw == NULL )
	{
		kcc_text_pop( &L->what, what_mark );
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	raw->id = (int)id;
	raw->layer = layer_index;
	raw->layer_name = layer_name;
	raw->name = kcc_arena_strdup( L->arena, name );
	raw->class_name = kcc_arena_strdup( L->arena, class_name[0] != '\0' ? class_name : layer_class );
	raw->path = kcc_arena_strdup( L->arena, L->path.text );
	raw->what = kcc_arena_strdup( L->arena, L->what.text );
	raw->collision = collision;
	raw->body = -1;
	raw->first_piece = L->pieces.count;
	if ( raw->name == NULL || raw->class_name == NULL || raw->path == NULL || raw->what == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	// raw may move while the lists grow: keep its index.
	int raw_index = L->objects.count - 1;
	kcc_dvec2 point = { 0.0, 0.0 };
	bool has_point = false, is_text = false;
	if ( L->status != KCC_LEVEL_OK )
	{
		// nothing more to read
	}
	else if ( cJSON_GetObjectItemCaseSensitive( object, "gid" ) != NULL )
	{
		kcc_read_tile_object( L, object, outer, raw, &point );
	}
	else
	{
		kcc_geometry_info info;
		if ( kcc_read_geometry( L, object, outer, &L->pieces, &L->points, &info ) == KCC_LEVEL_OK )
		{
			point = info.point;
			has_point = info.is_point;
			is_text = info.is_text;
		}
	}
	raw = KCC_LIST_AT( L->objects, kcc_raw_object, raw_index );
	raw->piece_count = L->pieces.count - raw->first_piece;
	raw->has_point = has_point;
	raw->is_text = is_text;
	raw->point = point;
	raw->closed = raw->piece_count == 1 && KCC_LIST_AT( L->pieces, kcc_piece, raw->first_piece )->kind ==
											  KCC_PIECE_POLYGON;
	raw->bounds = kcc_pieces_bounds( L, raw->first_piece, raw->piece_count, point );
	if ( L->status == KCC_LEVEL_OK )
	{
		kcc_json_properties( L, object, &raw->properties, &raw->property_count );
	}
	kcc_text_pop( &L->what, what_mark );
	return L->status;
}

kcc_level_status kcc_load_object_layer( kcc_loader* L, const cJSON* layer, int layer_index, const char* layer_class,
										double offset_x, double offset_y, bool collision )
{
	const cJSON* objects = NULL;
	if ( kcc_json_array( L, layer, "objects", false, &objects ) != KCC_LEVEL_OK || objects == NULL )
	{
		return L->status;
	}
	const char* layer_name = *KCC_LIST_AT( L->layer_names, const char*, layer_index );
	// Counted before any is read: a map of a million objects fails at once.
	int count = cJSON_GetArraySize( objects );
	if ( count > L->def->max_objects - L->objects.count )
	{
		int mark = kcc_text_push( &L->path, ".", "%s", L->key_objects );
		if ( L->objects.count == 0 )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "%d objects are more than max_objects (%d)", count,
					  L->def->max_objects );
		}
		else
		{
			kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "%d objects, with the %d of the layers before, are more than "
												"max_objects (%d)",
					  count, L->objects.count, L->def->max_objects );
		}
		kcc_text_pop( &L->path, mark );
		return L->status;
	}
	kcc_affine outer = { 1.0, 0.0, 0.0, 1.0, offset_x, offset_y, true };
	int index = 0;
	for ( const cJSON* entry = objects->child; entry != NULL && L->status == KCC_LEVEL_OK; entry = entry->next, ++index )
	{
		int path_mark = kcc_text_push( &L->path, ".", "%s[%d]", L->key_objects, index );
		if ( cJSON_IsObject( entry ) == false )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "an object must be a JSON object" );
		}
		else if ( cJSON_GetObjectItemCaseSensitive( entry, "template" ) != NULL )
		{
			// An instance of a template: read the template's object with the instance's members over it.
			double id = 0.0;
			kcc_json_int( L, entry, "id", false, 0.0, 0.0, 2147483647.0, &id );
			int what_mark = kcc_text_push( &L->what, ", ", "object %d", (int)id );
			cJSON* instance = L->status == KCC_LEVEL_OK ? kcc_instantiate_template( L, entry ) : NULL;
			kcc_text_pop( &L->what, what_mark );
			if ( instance != NULL )
			{
				kcc_read_object( L, instance, layer_index, layer_name, layer_class, &outer, collision );
			}
			cJSON_Delete( instance );
		}
		else
		{
			kcc_read_object( L, entry, layer_index, layer_name, layer_class, &outer, collision );
		}
		kcc_text_pop( &L->path, path_mark );
	}
	return L->status;
}

// Messages in pass 2 name the object as pass 1 saw it.
static void kcc_enter_object( kcc_loader* L, const kcc_raw_object* raw )
{
	kcc_text_pop( &L->path, 0 );
	kcc_text_pop( &L->what, 0 );
	kcc_text_push( &L->path, "", "%s", raw->path );
	kcc_text_push( &L->what, "", "%s", raw->what );
}

static void kcc_leave_object( kcc_loader* L )
{
	kcc_text_pop( &L->path, 0 );
	kcc_text_pop( &L->what, 0 );
}

typedef struct kcc_id_entry
{
	int id, index;
} kcc_id_entry;

static int kcc_compare_ids( const void* a, const void* b )
{
	const kcc_id_entry* x = a;
	const kcc_id_entry* y = b;
	return x->id != y->id ? ( x->id < y->id ? -1 : 1 ) : ( x->index < y->index ? -1 : x->index > y->index );
}

// The object with this id (ids > 0), -2 when two objects share it, -1 when none has it.
static int kcc_object_by_id( const kcc_id_entry* ids, int count, int id )
{
	int lo = 0, hi = count - 1;
	while ( lo <= hi )
	{
		int mid = ( lo + hi ) / 2;
		if ( ids[mid].id < id )
		{
			lo = mid + 1;
		}
		else if ( ids[mid].id > id )
		{
			hi = mid - 1;
		}
		else
		{
			bool twice = ( mid > 0 && ids[mid - 1].id == id ) || ( mid + 1 < count && ids[mid + 1].id == id );
			return twice ? -2 : ids[mid].index;
		}
	}
	return -1;
}

// An object without a class named like a spawn: its name holds "spawn" in any case.
static bool kcc_names_a_spawn( const char* name )
{
	for ( ; *name != '\0'; ++name )
	{
		const char* word = "spawn";
		int k = 0;
		while ( word[k] != '\0' && ( name[k] == word[k] || name[k] == word[k] - 'a' + 'A' ) )
		{
			++k;
		}
		if ( word[k] == '\0' )
		{
			return true;
		}
	}
	return false;
}

static kcc_level_status kcc_kind_from_class( kcc_loader* L, kcc_raw_object* raw )
{
	bool known = false;
	kcc_level_object_kind kind = kcc_kind_of_class( raw->class_name, &known );
	const kcc_level_rule* rule = kcc_match_rule( L, raw->layer_name, raw->class_name, raw->name, raw->properties,
												 raw->property_count, false );
	char cause[96]; // what gave the kind, for messages
	snprintf( cause, sizeof( cause ), "class '%s'", raw->class_name );
	if ( rule != NULL )
	{
		kind = rule->kind;
		snprintf( cause, sizeof( cause ), "rule %d (kind %s)", (int)( rule - L->def->rules ), kcc_kind_name( kind ) );
	}
	else if ( raw->class_name[0] == '\0' && kcc_names_a_spawn( raw->name ) )
	{
		kind = KCC_LEVEL_SPAWN; // "Spawn Point", "PlayerSpawn": a position, never a solid box
	}
	else if ( raw->class_name[0] == '\0' )
	{
		bool shapeless = raw->has_point || raw->is_text || raw->tile_without_shapes || raw->piece_count == 0;
		kind = raw->collision && shapeless == false ? KCC_LEVEL_SOLID : KCC_LEVEL_OTHER;
	}
	else if ( known == false )
	{
		kcc_warn_unknown_class( L, raw->class_name, "the object makes no shape" );
	}
	raw->kind = kind;
	bool needs_shape = kind == KCC_LEVEL_SOLID || kind == KCC_LEVEL_ONE_WAY || kind == KCC_LEVEL_PLATFORM ||
					   kind == KCC_LEVEL_ZONE || kind == KCC_LEVEL_CRATE;
	if ( needs_shape && ( raw->has_point || raw->is_text || raw->piece_count == 0 ) )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "%s needs a shape (a rectangle, polygon, ellipse%s)", cause,
						 kind == KCC_LEVEL_SOLID || kind == KCC_LEVEL_ONE_WAY ? ", polyline" : "" );
	}
	bool needs_area = kind == KCC_LEVEL_ZONE || kind == KCC_LEVEL_CRATE;
	for ( int i = 0; needs_area && i < raw->piece_count; ++i )
	{
		if ( KCC_LIST_AT( L->pieces, kcc_piece, raw->first_piece + i )->kind == KCC_PIECE_POLYLINE )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_INVALID,
							 "%s needs an area (a polyline, or a rectangle of zero width or height, has none)", cause );
		}
	}
	if ( kind == KCC_LEVEL_PATH && ( raw->piece_count != 1 || KCC_LIST_AT( L->pieces, kcc_piece, raw->first_piece )
																		->kind == KCC_PIECE_CIRCLE ) )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a path must be a polyline or a polygon" );
	}
	return KCC_LEVEL_OK;
}

static kcc_level_status kcc_resolve_platform( kcc_loader* L, int index, const kcc_id_entry* ids, int id_count )
{
	kcc_raw_object* raw = KCC_LIST_AT( L->objects, kcc_raw_object, index );
	const kcc_level_property* path = kcc_find_property( raw->properties, raw->property_count, "path" );
	const kcc_level_property* speed = kcc_find_property( raw->properties, raw->property_count, "speed" );
	const kcc_level_property* mode = kcc_find_property( raw->properties, raw->property_count, "mode" );
	if ( path == NULL || ( path->type != KCC_PROPERTY_OBJECT && path->type != KCC_PROPERTY_INT ) )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a platform needs a property 'path' (type object) that refers "
													 "to its path, a polyline or polygon" );
	}
	if ( speed == NULL || ( speed->type != KCC_PROPERTY_FLOAT && speed->type != KCC_PROPERTY_INT ) ||
		 speed->number <= 0.0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID,
						 "a platform needs a property 'speed' (float, world units per second, > 0)" );
	}
	if ( speed->number > KCC_MAX_PLATFORM_SPEED )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_LIMIT,
						 "property 'speed' is %g: more than the largest platform speed, %g world units per second",
						 speed->number, KCC_MAX_PLATFORM_SPEED );
	}
	int found = path->number >= 1.0 && path->number <= 2147483647.0
					? kcc_object_by_id( ids, id_count, (int)path->number )
					: -1;
	if ( found == -1 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "property 'path' refers to object %.0f, which is not in the map",
						 path->number );
	}
	if ( found == -2 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "property 'path' refers to object %.0f, and two objects have that "
													 "id", path->number );
	}
	if ( found == index )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "property 'path' refers to the platform itself" );
	}
	kcc_raw_object* target = KCC_LIST_AT( L->objects, kcc_raw_object, found );
	bool usable = target->piece_count == 1 &&
				  KCC_LIST_AT( L->pieces, kcc_piece, target->first_piece )->kind != KCC_PIECE_CIRCLE &&
				  target->has_point == false;
	bool path_class = target->class_name[0] == '\0' || strcmp( target->class_name, "path" ) == 0 ||
					  target->kind == KCC_LEVEL_PATH; // a rule made it a path
	if ( usable == false || path_class == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "its path, object %d '%s', must be a polyline or polygon with no "
													 "class or class 'path' (it is %s%s%s)",
						 target->id, target->name, usable ? "of class '" : "not a polyline or polygon",
						 usable ? target->class_name : "", usable ? "'" : "" );
	}
	target->kind = KCC_LEVEL_PATH;
	kcc_level_path_mode path_mode = target->closed ? KCC_PATH_LOOP : KCC_PATH_PING_PONG;
	if ( mode != NULL )
	{
		bool loop = mode->type == KCC_PROPERTY_STRING && strcmp( mode->string, "loop" ) == 0;
		bool ping_pong = mode->type == KCC_PROPERTY_STRING &&
						 ( strcmp( mode->string, "ping_pong" ) == 0 || strcmp( mode->string, "pingpong" ) == 0 );
		if ( loop == false && ping_pong == false )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "property 'mode' must be the string loop or ping_pong" );
		}
		path_mode = loop ? KCC_PATH_LOOP : KCC_PATH_PING_PONG;
	}
	const kcc_piece* line = KCC_LIST_AT( L->pieces, kcc_piece, target->first_piece );
	const kcc_dvec2* points = KCC_LIST_AT( L->points, kcc_dvec2, line->first );
	double length = 0.0;
	for ( int i = 1; i < line->count; ++i )
	{
		length += hypot( points[i].x - points[i - 1].x, points[i].y - points[i - 1].y );
	}
	if ( length <= 0.0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "its path, object %d '%s', has no length", target->id,
						 target->name );
	}
	kcc_platform_desc* p = kcc_list_push( &L->platforms, sizeof( kcc_platform_desc ), 1 );
	if ( p == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	p->object = index;
	p->path = found;
	p->speed = speed->number;
	p->mode = path_mode;
	return KCC_LEVEL_OK;
}

static kcc_level_status kcc_emit_object( kcc_loader* L, int index )
{
	kcc_raw_object* raw = KCC_LIST_AT( L->objects, kcc_raw_object, index );
	cpBitmask category = L->def->solid_category;
	bool sensor = false;
	bool own_body = false;
	switch ( raw->kind )
	{
		case KCC_LEVEL_SOLID:
			break;
		case KCC_LEVEL_ONE_WAY:
			category = L->def->one_way_category;
			break;
		case KCC_LEVEL_ZONE:
			category = L->def->zone_category;
			sensor = true;
			break;
		case KCC_LEVEL_PLATFORM:
		{
			bool one_way = false;
			if ( kcc_property_bool( L, raw->properties, raw->property_count, "one_way", false, &one_way ) !=
				 KCC_LEVEL_OK )
			{
				return L->status;
			}
			category = one_way ? L->def->one_way_category : L->def->solid_category;
			own_body = true;
			break;
		}
		case KCC_LEVEL_CRATE:
			category = L->def->pushable_category;
			own_body = true;
			break;
		default:
			return KCC_LEVEL_OK; // spawns, paths, other classes: records only
	}
	int body = -1;
	if ( own_body )
	{
		kcc_dvec2* position = kcc_list_push( &L->bodies, sizeof( kcc_dvec2 ), 1 );
		if ( position == NULL )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		*position = ( kcc_dvec2 ){ 0.5 * ( raw->bounds.min.x + raw->bounds.max.x ),
								   0.5 * ( raw->bounds.min.y + raw->bounds.max.y ) };
		body = L->bodies.count - 1;
	}
	raw->body = body;
	raw->first_shape = L->shapes.count;
	for ( int i = 0; i < raw->piece_count && L->status == KCC_LEVEL_OK; ++i )
	{
		const kcc_piece* piece = KCC_LIST_AT( L->pieces, kcc_piece, raw->first_piece + i );
		kcc_emit_piece( L, piece, L->points.items, body, index, raw->layer, category, sensor );
	}
	raw = KCC_LIST_AT( L->objects, kcc_raw_object, index );
	raw->shape_count = L->shapes.count - raw->first_shape;
	return L->status;
}

// An object wholly outside the map (fixed-size maps: an infinite map has no outside) is most likely a slip.
static void kcc_check_inside( kcc_loader* L, const kcc_raw_object* raw )
{
	double w = (double)L->map_width_tiles * L->tile_width / L->pixels_per_unit;
	double h = L->map_height_px / L->pixels_per_unit;
	if ( L->infinite == false && L->status == KCC_LEVEL_OK &&
		 ( raw->bounds.max.x < 0.0 || raw->bounds.min.x > w || raw->bounds.max.y < 0.0 || raw->bounds.min.y > h ) )
	{
		kcc_warn( L, "the object is outside the map: its box (%g, %g) to (%g, %g) world units misses (0, 0) to (%g, %g)",
				  raw->bounds.min.x, raw->bounds.min.y, raw->bounds.max.x, raw->bounds.max.y, w, h );
	}
}

kcc_level_status kcc_resolve_objects( kcc_loader* L )
{
	int count = L->objects.count;
	kcc_id_entry* ids = malloc( (size_t)( count > 0 ? count : 1 ) * sizeof( kcc_id_entry ) );
	if ( ids == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	int id_count = 0;
	for ( int i = 0; i < count && L->status == KCC_LEVEL_OK; ++i )
	{
		kcc_raw_object* raw = KCC_LIST_AT( L->objects, kcc_raw_object, i );
		kcc_enter_object( L, raw );
		if ( kcc_check_world( L, raw->bounds.min ) == KCC_LEVEL_OK &&
			 kcc_check_world( L, raw->bounds.max ) == KCC_LEVEL_OK )
		{
			kcc_kind_from_class( L, raw );
			kcc_check_inside( L, raw );
		}
		if ( raw->id > 0 )
		{
			ids[id_count++] = ( kcc_id_entry ){ raw->id, i };
		}
	}
	qsort( ids, (size_t)id_count, sizeof( kcc_id_entry ), kcc_compare_ids );
	for ( int i = 0; i < count && L->status == KCC_LEVEL_OK; ++i )
	{
		kcc_raw_object* raw = KCC_LIST_AT( L->objects, kcc_raw_object, i );
		if ( raw->kind == KCC_LEVEL_PLATFORM )
		{
			kcc_enter_object( L, raw );
			kcc_resolve_platform( L, i, ids, id_count );
		}
	}
	free( ids );
	for ( int i = 0; i < count && L->status == KCC_LEVEL_OK; ++i )
	{
		kcc_enter_object( L, KCC_LIST_AT( L->objects, kcc_raw_object, i ) );
		kcc_emit_object( L, i );
	}
	if ( L->status == KCC_LEVEL_OK )
	{
		kcc_leave_object( L );
	}
	return L->status;
}
