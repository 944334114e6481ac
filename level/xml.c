// SPDX-License-Identifier: MIT
// Tiled's XML formats (.tmx maps, .tsx tilesets, .tx templates) read with libexpat into the same tree as Tiled's
// JSON formats, so one reader checks both: attributes become members (numbers and bools typed as Tiled's JSON
// writes them), layers and objects arrays, properties the array form with typed values, tile data the layer's
// "data" (CSV and base64 text kept as text, <tile> elements an array of gids), chunks an array of chunks.
// Elements that do not bear on collision (images, animations, Wang sets, editor settings) are skipped.
#include "internal.h"

#include <expat.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef enum kcc_xml_kind
{
	KCC_XML_MAP,
	KCC_XML_TILESET,
	KCC_XML_TEMPLATE,
	KCC_XML_TILE,
	KCC_XML_LAYER,
	KCC_XML_OBJECTGROUP,
	KCC_XML_IMAGELAYER,
	KCC_XML_GROUP,
	KCC_XML_DATA,
	KCC_XML_CHUNK,
	KCC_XML_OBJECT,
	KCC_XML_PROPERTIES,
	KCC_XML_PROPERTY,
	KCC_XML_OTHER,
} kcc_xml_kind;

typedef struct kcc_xml_frame
{
	kcc_xml_kind kind;
	cJSON* node;       // the JSON object the element became (the layer for <data>)
	bool members;      // PROPERTIES: the members of a class value (name: value), not the array form
	bool text_value;   // PROPERTY: its value is its text (no value attribute)
	const char* type;  // PROPERTY: its type (points into node)
} kcc_xml_frame;

typedef struct kcc_xml
{
	kcc_loader* L;
	XML_Parser parser;
	cJSON* root;
	kcc_xml_frame stack[KCC_MAX_DEPTH];
	int depth;
	int skip; // > 0: inside a skipped element, this many levels deep
	char* text; // character data of the element being read (data, chunk, property)
	size_t text_length, text_capacity;
	bool collecting;
} kcc_xml;

static void kcc_xml_stop( kcc_xml* x )
{
	XML_StopParser( x->parser, XML_FALSE );
}

// A failure at the parser's line.
static void kcc_xml_fail( kcc_xml* x, kcc_level_status status, const char* problem, const char* detail )
{
	kcc_fail( x->L, status, "line %lu: %s%s", (unsigned long)XML_GetCurrentLineNumber( x->parser ), problem,
			  detail );
	kcc_xml_stop( x );
}

static bool kcc_xml_check( kcc_xml* x, const void* made )
{
	if ( made == NULL )
	{
		kcc_xml_fail( x, KCC_LEVEL_ERROR_MEMORY, "out of memory", "" );
	}
	return made != NULL;
}

static bool kcc_xml_add( kcc_xml* x, cJSON* object, const char* key, cJSON* item )
{
	if ( item == NULL || cJSON_AddItemToObject( object, key, item ) == false )
	{
		cJSON_Delete( item );
		return kcc_xml_check( x, NULL );
	}
	return true;
}

static bool kcc_xml_append( kcc_xml* x, cJSON* array, cJSON* item )
{
	if ( item == NULL || array == NULL || cJSON_AddItemToArray( array, item ) == false )
	{
		cJSON_Delete( item );
		return kcc_xml_check( x, NULL );
	}
	return true;
}

// The array member key of object, made when absent.
static cJSON* kcc_xml_array( kcc_xml* x, cJSON* object, const char* key )
{
	cJSON* array = cJSON_GetObjectItemCaseSensitive( object, key );
	if ( cJSON_IsArray( array ) )
	{
		return array;
	}
	cJSON_DeleteItemFromObjectCaseSensitive( object, key );
	array = cJSON_CreateArray();
	return kcc_xml_add( x, object, key, array ) ? array : NULL;
}

static bool kcc_in_list( const char* name, const char* const* list )
{
	for ( ; *list != NULL; ++list )
	{
		if ( strcmp( name, *list ) == 0 )
		{
			return true;
		}
	}
	return false;
}

// A whole number or decimal, nothing else; false when it is not one.
static bool kcc_xml_number( const char* text, double* out )
{
	char* end = NULL;
	*out = strtod( text, &end );
	return end != text && *end == '\0' && isfinite( *out );
}

// One attribute value as Tiled's JSON types it.
static bool kcc_xml_attribute( kcc_xml* x, cJSON* object, const char* element, const char* name, const char* value )
{
	static const char* const numbers[] = { "x", "y", "width", "height", "id", "gid", "rotation", "firstgid",
										   "tilewidth", "tileheight", "tilecount", "columns", "spacing", "margin",
										   "offsetx", "offsety", "parallaxx", "parallaxy", "opacity", "nextlayerid",
										   "nextobjectid", "hexsidelength", "compressionlevel", "probability",
										   "startx", "starty", NULL };
	static const char* const bools[] = { "visible", "infinite", "locked", NULL };
	if ( kcc_in_list( name, numbers ) )
	{
		double number;
		if ( kcc_xml_number( value, &number ) == false )
		{
			char detail[160];
			snprintf( detail, sizeof( detail ), "<%s> attribute '%s' must be a number (is '%.60s')", element, name,
					  value );
			kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, detail, "" );
			return false;
		}
		return kcc_xml_add( x, object, name, cJSON_CreateNumber( number ) );
	}
	if ( kcc_in_list( name, bools ) )
	{
		bool on = strcmp( value, "1" ) == 0 || strcmp( value, "true" ) == 0;
		if ( on == false && strcmp( value, "0" ) != 0 && strcmp( value, "false" ) != 0 )
		{
			char detail[160];
			snprintf( detail, sizeof( detail ), "<%s> attribute '%s' must be 0 or 1 (is '%.60s')", element, name, value );
			kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, detail, "" );
			return false;
		}
		return kcc_xml_add( x, object, name, cJSON_CreateBool( on ) );
	}
	return kcc_xml_add( x, object, name, cJSON_CreateString( value ) );
}

// A new object holding the element's attributes (except those in skip).
static cJSON* kcc_xml_object( kcc_xml* x, const char* element, const char** attributes, const char* const* skip )
{
	cJSON* object = cJSON_CreateObject();
	if ( kcc_xml_check( x, object ) == false )
	{
		return NULL;
	}
	for ( int i = 0; attributes[i] != NULL; i += 2 )
	{
		if ( ( skip != NULL && kcc_in_list( attributes[i], skip ) ) ||
			 kcc_xml_attribute( x, object, element, attributes[i], attributes[i + 1] ) == false )
		{
			if ( x->L->status != KCC_LEVEL_OK )
			{
				cJSON_Delete( object );
				return NULL;
			}
		}
	}
	return object;
}

static const char* kcc_xml_get( const char** attributes, const char* name )
{
	for ( int i = 0; attributes[i] != NULL; i += 2 )
	{
		if ( strcmp( attributes[i], name ) == 0 )
		{
			return attributes[i + 1];
		}
	}
	return NULL;
}

// points="x,y x,y ..." as [{"x":..,"y":..}, ...].
static cJSON* kcc_xml_points( kcc_xml* x, const char* text )
{
	cJSON* points = cJSON_CreateArray();
	if ( kcc_xml_check( x, points ) == false )
	{
		return NULL;
	}
	const char* p = text;
	for ( ;; )
	{
		while ( *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' )
		{
			++p;
		}
		if ( *p == '\0' )
		{
			return points;
		}
		char* end = NULL;
		double px = strtod( p, &end );
		bool ok = end != p && *end == ',';
		double py = 0.0;
		if ( ok )
		{
			p = end + 1;
			py = strtod( p, &end );
			ok = end != p && ( *end == '\0' || *end == ' ' || *end == '\t' || *end == '\n' || *end == '\r' ) &&
				 isfinite( px ) && isfinite( py );
		}
		if ( ok == false )
		{
			cJSON_Delete( points );
			kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, "points must be pairs x,y separated by spaces", "" );
			return NULL;
		}
		p = end;
		cJSON* point = cJSON_CreateObject();
		if ( kcc_xml_append( x, points, point ) == false || kcc_xml_add( x, point, "x", cJSON_CreateNumber( px ) ) == false ||
			 kcc_xml_add( x, point, "y", cJSON_CreateNumber( py ) ) == false )
		{
			cJSON_Delete( points );
			return NULL;
		}
	}
}

// A property's value of a declared type from text.
static cJSON* kcc_xml_value( kcc_xml* x, const char* type, const char* text )
{
	if ( strcmp( type, "int" ) == 0 || strcmp( type, "float" ) == 0 || strcmp( type, "object" ) == 0 )
	{
		double number;
		if ( kcc_xml_number( text, &number ) == false )
		{
			kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, "a property of type int, float or object must hold a number",
						  "" );
			return NULL;
		}
		return cJSON_CreateNumber( number );
	}
	if ( strcmp( type, "bool" ) == 0 )
	{
		if ( strcmp( text, "true" ) != 0 && strcmp( text, "false" ) != 0 )
		{
			kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, "a property of type bool must be true or false", "" );
			return NULL;
		}
		return cJSON_CreateBool( strcmp( text, "true" ) == 0 );
	}
	return cJSON_CreateString( text );
}

static void kcc_xml_push( kcc_xml* x, kcc_xml_kind kind, cJSON* node )
{
	kcc_xml_frame* f = x->stack + x->depth++;
	memset( f, 0, sizeof( *f ) );
	f->kind = kind;
	f->node = node;
}

static void kcc_xml_collect( kcc_xml* x )
{
	x->collecting = true;
	x->text_length = 0;
}

static bool kcc_is_layer_parent( const kcc_xml_frame* parent )
{
	return parent != NULL && ( parent->kind == KCC_XML_MAP || parent->kind == KCC_XML_GROUP );
}

// A layer element (layer, objectgroup, imagelayer, group) as a member of its parent's layers.
static cJSON* kcc_xml_layer( kcc_xml* x, const kcc_xml_frame* parent, const char* name, const char** attributes,
							 const char* type )
{
	cJSON* layer = kcc_xml_object( x, name, attributes, NULL );
	if ( layer == NULL || kcc_xml_add( x, layer, "type", cJSON_CreateString( type ) ) == false ||
		 kcc_xml_append( x, kcc_xml_array( x, parent->node, "layers" ), layer ) == false )
	{
		return NULL;
	}
	return layer;
}

static void XMLCALL kcc_xml_start( void* user, const char* name, const char** attributes )
{
	kcc_xml* x = user;
	if ( x->skip > 0 )
	{
		x->skip += 1;
		return;
	}
	if ( x->depth >= KCC_MAX_DEPTH )
	{
		char detail[64];
		snprintf( detail, sizeof( detail ), " (more than %d levels)", KCC_MAX_DEPTH );
		kcc_xml_fail( x, KCC_LEVEL_ERROR_LIMIT, "elements nest deeper than the loader reads", detail );
		return;
	}
	kcc_xml_frame* parent = x->depth > 0 ? x->stack + x->depth - 1 : NULL;
	kcc_xml_kind pk = parent != NULL ? parent->kind : KCC_XML_OTHER;
	cJSON* node = NULL;
	if ( parent == NULL )
	{
		kcc_xml_kind kind = strcmp( name, "map" ) == 0		  ? KCC_XML_MAP
							: strcmp( name, "tileset" ) == 0  ? KCC_XML_TILESET
							: strcmp( name, "template" ) == 0 ? KCC_XML_TEMPLATE
															  : KCC_XML_OTHER;
		if ( kind == KCC_XML_OTHER )
		{
			kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, "the root element is not a Tiled map, tileset or template: <",
						  name );
			return;
		}
		node = kcc_xml_object( x, name, attributes, NULL );
		if ( node == NULL || kcc_xml_add( x, node, "type", cJSON_CreateString( name ) ) == false )
		{
			cJSON_Delete( node );
			return;
		}
		x->root = node;
		kcc_xml_push( x, kind, node );
		return;
	}
	if ( strcmp( name, "tileset" ) == 0 && ( pk == KCC_XML_MAP || pk == KCC_XML_TEMPLATE ) )
	{
		node = kcc_xml_object( x, name, attributes, NULL );
		bool ok = pk == KCC_XML_MAP ? kcc_xml_append( x, kcc_xml_array( x, parent->node, "tilesets" ), node )
									: kcc_xml_add( x, parent->node, "tileset", node );
		if ( ok )
		{
			kcc_xml_push( x, KCC_XML_TILESET, node );
		}
		return;
	}
	if ( strcmp( name, "tileoffset" ) == 0 && pk == KCC_XML_TILESET )
	{
		node = kcc_xml_object( x, name, attributes, NULL );
		if ( kcc_xml_add( x, parent->node, "tileoffset", node ) )
		{
			x->skip = 1;
		}
		return;
	}
	if ( strcmp( name, "image" ) == 0 && ( pk == KCC_XML_TILESET || pk == KCC_XML_TILE ) )
	{
		// The image's size: a tileset's tile count, a collection tile's size.
		const char* keys[2][2] = { { "width", "imagewidth" }, { "height", "imageheight" } };
		for ( int i = 0; i < 2; ++i )
		{
			const char* value = kcc_xml_get( attributes, keys[i][0] );
			double number = 0.0;
			if ( value != NULL && kcc_xml_number( value, &number ) == false )
			{
				kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, "<image> attribute width or height must be a number", "" );
				return;
			}
			if ( value != NULL && kcc_xml_add( x, parent->node, keys[i][1], cJSON_CreateNumber( number ) ) == false )
			{
				return;
			}
		}
		x->skip = 1;
		return;
	}
	if ( strcmp( name, "tile" ) == 0 && pk == KCC_XML_TILESET )
	{
		node = kcc_xml_object( x, name, attributes, NULL );
		if ( kcc_xml_append( x, kcc_xml_array( x, parent->node, "tiles" ), node ) )
		{
			kcc_xml_push( x, KCC_XML_TILE, node );
		}
		return;
	}
	if ( strcmp( name, "tile" ) == 0 && ( pk == KCC_XML_DATA || pk == KCC_XML_CHUNK ) )
	{
		// Tiled's oldest layer format: one <tile gid="..."/> per cell.
		const char* gid = kcc_xml_get( attributes, "gid" );
		double value = 0.0;
		if ( gid != NULL && kcc_xml_number( gid, &value ) == false )
		{
			kcc_xml_fail( x, KCC_LEVEL_ERROR_INVALID, "<tile> attribute 'gid' must be a number", "" );
			return;
		}
		if ( kcc_xml_append( x, kcc_xml_array( x, parent->node, "data" ), cJSON_CreateNumber( value ) ) )
		{
			x->skip = 1;
		}
		return;
	}
	if ( kcc_is_layer_parent( parent ) && ( strcmp( name, "layer" ) == 0 || strcmp( name, "objectgroup" ) == 0 ||
											 strcmp( name, "imagelayer" ) == 0 || strcmp( name, "group" ) == 0 ) )
	{
		kcc_xml_kind kind = name[0] == 'l'	 ? KCC_XML_LAYER
							: name[0] == 'o' ? KCC_XML_OBJECTGROUP
							: name[0] == 'i' ? KCC_XML_IMAGELAYER
											 : KCC_XML_GROUP;
		const char* type = kind == KCC_XML_LAYER ? "tilelayer" : name;
		node = kcc_xml_layer( x, parent, name, attributes, type );
		if ( node != NULL && ( kind != KCC_XML_OBJECTGROUP || kcc_xml_array( x, node, "objects" ) != NULL ) )
		{
			kcc_xml_push( x, kind, node );
		}
		return;
	}
	if ( strcmp( name, "objectgroup" ) == 0 && pk == KCC_XML_TILE )
	{
		node = kcc_xml_object( x, name, attributes, NULL );
		if ( kcc_xml_add( x, parent->node, "objectgroup", node ) && kcc_xml_array( x, node, "objects" ) != NULL )
		{
			kcc_xml_push( x, KCC_XML_OBJECTGROUP, node );
		}
		return;
	}
	if ( strcmp( name, "data" ) == 0 && pk == KCC_XML_LAYER )
	{
		// Encoding and compression belong to the layer in Tiled's JSON.
		for ( int i = 0; attributes[i] != NULL; i += 2 )
		{
			if ( kcc_xml_attribute( x, parent->node, name, attributes[i], attributes[i + 1] ) == false )
			{
				return;
			}
		}
		kcc_xml_push( x, KCC_XML_DATA, parent->node );
		kcc_xml_collect( x );
		return;
	}
	if ( strcmp( name, "chunk" ) == 0 && pk == KCC_XML_DATA )
	{
		x->collecting = false;
		node = kcc_xml_object( x, name, attributes, NULL );
		if ( kcc_xml_append( x, kcc_xml_array( x, parent->node, "chunks" ), node ) )
		{
			kcc_xml_push( x, KCC_XML_CHUNK, node );
			kcc_xml_collect( x );
		}
		return;
	}
	if ( strcmp( name, "object" ) == 0 && ( pk == KCC_XML_OBJECTGROUP || pk == KCC_XML_TEMPLATE ) )
	{
		node = kcc_xml_object( x, name, attributes, NULL );
		bool ok = pk == KCC_XML_TEMPLATE
					  ? kcc_xml_add( x, parent->node, "object", node )
					  : kcc_xml_append( x, cJSON_GetObjectItemCaseSensitive( parent->node, "objects" ), node );
		if ( ok )
		{
			kcc_xml_push( x, KCC_XML_OBJECT, node );
		}
		return;
	}
	if ( pk == KCC_XML_OBJECT && ( strcmp( name, "ellipse" ) == 0 || strcmp( name, "point" ) == 0 ) )
	{
		if ( kcc_xml_add( x, parent->node, name, cJSON_CreateTrue() ) )
		{
			x->skip = 1;
		}
		return;
	}
	if ( pk == KCC_XML_OBJECT && ( strcmp( name, "polygon" ) == 0 || strcmp( name, "polyline" ) == 0 ) )
	{
		const char* points = kcc_xml_get( attributes, "points" );
		if ( kcc_xml_add( x, parent->node, name, kcc_xml_points( x, points != NULL ? points : "" ) ) )
		{
			x->skip = 1;
		}
		return;
	}
	if ( pk == KCC_XML_OBJECT && strcmp( name, "text" ) == 0 )
	{
		if ( kcc_xml_add( x, parent->node, "text", cJSON_CreateObject() ) )
		{
			x->skip = 1;
		}
		return;
	}
	if ( strcmp( name, "properties" ) == 0 && pk != KCC_XML_OTHER && pk != KCC_XML_PROPERTIES &&
		 pk != KCC_XML_DATA && pk != KCC_XML_CHUNK )
	{
		bool members = pk == KCC_XML_PROPERTY;
		if ( members )
		{
			// A class value: its members as name: value.
			cJSON_DeleteItemFromObjectCaseSensitive( parent->node, "value" );
			node = cJSON_CreateObject();
			parent->text_value = false;
			x->collecting = false;
			if ( kcc_xml_add( x, parent->node, "value", node ) == false )
			{
				return;
			}
		}
		else if ( ( node = kcc_xml_array( x, parent->node, "properties" ) ) == NULL )
		{
			return;
		}
		kcc_xml_push( x, KCC_XML_PROPERTIES, node );
		x->stack[x->depth - 1].members = members;
		return;
	}
	if ( strcmp( name, "property" ) == 0 && pk == KCC_XML_PROPERTIES )
	{
		static const char* const skip[] = { "value", NULL };
		const char* type = kcc_xml_get( attributes, "type" );
		const char* value = kcc_xml_get( attributes, "value" );
		type = type != NULL ? type : "string";
		node = kcc_xml_object( x, name, attributes, skip );
		if ( node == NULL )
		{
			return;
		}
		// A class member stands in its class value under its name until it ends and its value replaces it.
		const char* member = kcc_xml_get( attributes, "name" );
		bool added = parent->members ? kcc_xml_add( x, parent->node, member != NULL ? member : "", node )
									 : kcc_xml_append( x, parent->node, node );
		if ( added == false ||
			 ( value != NULL && kcc_xml_add( x, node, "value", kcc_xml_value( x, type, value ) ) == false ) )
		{
			return;
		}
		kcc_xml_push( x, KCC_XML_PROPERTY, node );
		kcc_xml_frame* f = x->stack + x->depth - 1;
		f->type = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( node, "type" ) );
		f->type = f->type != NULL ? f->type : "string";
		f->text_value = value == NULL;
		if ( f->text_value )
		{
			kcc_xml_collect( x );
		}
		return;
	}
	// Anything else (images, animations, Wang sets, editor settings, a newer Tiled's elements): not collision.
	x->skip = 1;
}

// Text of the element that ends, with the white space around it trimmed, NUL-terminated.
static const char* kcc_xml_text( kcc_xml* x, bool trim )
{
	if ( x->text == NULL )
	{
		x->text = malloc( 1 );
		x->text_capacity = 1;
		if ( kcc_xml_check( x, x->text ) == false )
		{
			x->text_capacity = 0;
			return NULL;
		}
	}
	size_t start = 0, end = x->text_length;
	while ( trim && start < end && ( x->text[start] == ' ' || x->text[start] == '\n' || x->text[start] == '\r' ||
									 x->text[start] == '\t' ) )
	{
		++start;
	}
	while ( trim && end > start && ( x->text[end - 1] == ' ' || x->text[end - 1] == '\n' ||
									 x->text[end - 1] == '\r' || x->text[end - 1] == '\t' ) )
	{
		--end;
	}
	x->text[end] = '\0';
	return x->text + start;
}

static void XMLCALL kcc_xml_end( void* user, const char* name )
{
	kcc_xml* x = user;
	(void)name;
	if ( x->skip > 0 )
	{
		x->skip -= 1;
		return;
	}
	if ( x->depth == 0 )
	{
		return;
	}
	kcc_xml_frame* f = x->stack + --x->depth;
	kcc_xml_frame* parent = x->depth > 0 ? x->stack + x->depth - 1 : NULL;
	if ( ( f->kind == KCC_XML_DATA || f->kind == KCC_XML_CHUNK ) && x->collecting )
	{
		x->collecting = false;
		const char* text = kcc_xml_text( x, true );
		bool has_data = cJSON_GetObjectItemCaseSensitive( f->node, "data" ) != NULL;
		bool has_chunks = cJSON_GetObjectItemCaseSensitive( f->node, "chunks" ) != NULL;
		if ( text == NULL || has_data || has_chunks )
		{
			return;
		}
		// Text (CSV or base64) stays text; no text and no <tile> elements is an empty layer.
		kcc_xml_add( x, f->node, "data", text[0] != '\0' ? cJSON_CreateString( text ) : cJSON_CreateArray() );
	}
	else if ( f->kind == KCC_XML_PROPERTY )
	{
		if ( f->text_value )
		{
			x->collecting = false;
			const char* text = kcc_xml_text( x, false );
			bool is_class = strcmp( f->type, "class" ) == 0;
			if ( text == NULL || kcc_xml_add( x, f->node, "value", is_class ? cJSON_CreateObject()
																			: kcc_xml_value( x, f->type, text ) ) ==
									 false )
			{
				return;
			}
		}
		if ( parent != NULL && parent->members )
		{
			// The member stood in its class value: its value takes its place, under its name.
			const char* member = cJSON_GetStringValue( cJSON_GetObjectItemCaseSensitive( f->node, "name" ) );
			cJSON* value = cJSON_DetachItemFromObjectCaseSensitive( f->node, "value" );
			cJSON_DetachItemViaPointer( parent->node, f->node );
			kcc_xml_add( x, parent->node, member != NULL ? member : "", value != NULL ? value : cJSON_CreateNull() );
			cJSON_Delete( f->node );
		}
	}
}

static void XMLCALL kcc_xml_characters( void* user, const char* text, int length )
{
	kcc_xml* x = user;
	if ( x->collecting == false || x->skip > 0 || length <= 0 )
	{
		return;
	}
	size_t need = x->text_length + (size_t)length + 1;
	if ( need > x->text_capacity )
	{
		size_t grown = x->text_capacity > 0 ? x->text_capacity : 256;
		while ( grown < need )
		{
			grown *= 2;
		}
		char* bigger = realloc( x->text, grown );
		if ( kcc_xml_check( x, bigger ) == false )
		{
			return;
		}
		x->text = bigger;
		x->text_capacity = grown;
	}
	memcpy( x->text + x->text_length, text, (size_t)length );
	x->text_length += (size_t)length;
}

// Entities declared in a DOCTYPE could expand without bound: Tiled never writes them, so none are read.
static void XMLCALL kcc_xml_entity( void* user, const XML_Char* name, int parameter, const XML_Char* value,
									int length, const XML_Char* base, const XML_Char* system, const XML_Char* public_id,
									const XML_Char* notation )
{
	(void)parameter, (void)value, (void)length, (void)base, (void)system, (void)public_id, (void)notation;
	kcc_xml_fail( user, KCC_LEVEL_ERROR_UNSUPPORTED, "entity declarations are not read: ", name );
}

kcc_level_status kcc_xml_parse( kcc_loader* L, const char* text, size_t size, cJSON** out )
{
	*out = NULL;
	kcc_xml* x = calloc( 1, sizeof( kcc_xml ) );
	XML_Parser parser = XML_ParserCreate( "UTF-8" );
	if ( x == NULL || parser == NULL )
	{
		free( x );
		if ( parser != NULL )
		{
			XML_ParserFree( parser );
		}
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	x->L = L;
	x->parser = parser;
	XML_SetUserData( parser, x );
	XML_SetElementHandler( parser, kcc_xml_start, kcc_xml_end );
	XML_SetCharacterDataHandler( parser, kcc_xml_characters );
	XML_SetEntityDeclHandler( parser, kcc_xml_entity );
	// Expat takes an int length: feed large files in pieces.
	const size_t piece = (size_t)1 << 30;
	bool ok = true;
	for ( size_t at = 0; ok && ( at < size || at == 0 ); )
	{
		size_t n = size - at < piece ? size - at : piece;
		bool last = at + n == size;
		ok = XML_Parse( parser, text + at, (int)n, last ) == XML_STATUS_OK;
		at += n;
		if ( last )
		{
			break;
		}
	}
	if ( ok == false && L->status == KCC_LEVEL_OK )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_SYNTAX, "not valid XML at line %lu, column %lu: %s",
				  (unsigned long)XML_GetCurrentLineNumber( parser ),
				  (unsigned long)XML_GetCurrentColumnNumber( parser ) + 1, XML_ErrorString( XML_GetErrorCode( parser ) ) );
	}
	if ( L->status == KCC_LEVEL_OK && x->root == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_SYNTAX, "the file holds no XML element" );
	}
	if ( L->status == KCC_LEVEL_OK )
	{
		*out = x->root;
	}
	else
	{
		cJSON_Delete( x->root );
	}
	XML_ParserFree( parser );
	free( x->text );
	free( x );
	return L->status;
}
