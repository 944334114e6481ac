// SPDX-License-Identifier: MIT
// Reading Tiled JSON with messages that say where: the loader's error (file, object, JSON path), typed member
// reads that name the member on a bad value, custom properties, the parse with a line and column, file reading.
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// "file: what: problem (at path)" into out, cut at its end.
static void kcc_compose( const kcc_loader* L, const char* problem, char* out, size_t size )
{
	bool from = L->from_file != NULL;
	const char* parts[] = { L->file,
							": ",
							L->what.text,
							L->what.length > 0 ? ": " : "",
							problem,
							L->path.length > 0 ? " (at " : "",
							L->path.text,
							L->path.length > 0 ? ")" : "",
							from ? " (in the " : "",
							from ? L->from_role : "",
							from ? " of " : "",
							from ? L->from_file : "",
							from && L->from_path.length > 0 ? " at " : "",
							from ? L->from_path.text : "",
							from ? ")" : "" };
	size_t used = 0, capacity = size - 1;
	for ( size_t i = 0; i < sizeof( parts ) / sizeof( parts[0] ); ++i )
	{
		size_t n = strlen( parts[i] );
		n = n < capacity - used ? n : capacity - used;
		memcpy( out + used, parts[i], n );
		used += n;
	}
	out[used] = '\0';
}

kcc_level_status kcc_fail( kcc_loader* L, kcc_level_status status, const char* format, ... )
{
	if ( L->status != KCC_LEVEL_OK )
	{
		return L->status; // the first error is the one reported
	}
	L->status = status;
	if ( L->error == NULL )
	{
		return status;
	}
	char problem[KCC_LEVEL_MESSAGE_SIZE];
	va_list args;
	va_start( args, format );
	vsnprintf( problem, sizeof( problem ), format, args );
	va_end( args );
	kcc_compose( L, problem, L->error->message, sizeof( L->error->message ) );
	L->error->status = status;
	return status;
}

void kcc_warn( kcc_loader* L, const char* format, ... )
{
	if ( L->status != KCC_LEVEL_OK || L->warnings.count > KCC_MAX_WARNINGS )
	{
		return;
	}
	char problem[KCC_LEVEL_MESSAGE_SIZE], line[KCC_LEVEL_MESSAGE_SIZE];
	va_list args;
	va_start( args, format );
	vsnprintf( problem, sizeof( problem ), format, args );
	va_end( args );
	if ( L->warnings.count == KCC_MAX_WARNINGS )
	{
		snprintf( problem, sizeof( problem ), "more than %d warnings: the rest are left out", KCC_MAX_WARNINGS );
	}
	kcc_compose( L, problem, line, sizeof( line ) );
	for ( int i = 0; i < L->warnings.count; ++i )
	{
		if ( strcmp( *KCC_LIST_AT( L->warnings, const char*, i ), line ) == 0 )
		{
			return;
		}
	}
	const char** slot = kcc_list_push( &L->warnings, sizeof( const char* ), 1 );
	const char* copy = kcc_arena_strdup( L->arena, line );
	if ( slot == NULL || copy == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		return;
	}
	*slot = copy;
}

void kcc_warn_unknown_class( kcc_loader* L, const char* class_name, const char* what )
{
	for ( int i = 0; i < L->unknown_classes.count; ++i )
	{
		if ( strcmp( *KCC_LIST_AT( L->unknown_classes, const char*, i ), class_name ) == 0 )
		{
			return;
		}
	}
	const char** slot = kcc_list_push( &L->unknown_classes, sizeof( const char* ), 1 );
	if ( slot == NULL )
	{
		kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		return;
	}
	*slot = class_name;
	kcc_warn( L, "class '%s' is known to no rule or built-in class: %s (add a rule for it, or give it a class "
				 "of solid, one_way, platform, zone, spawn, crate or path)",
			  class_name, what );
}

// Appends to the stack's text, cut at the buffer's end.
static void kcc_text_append( kcc_text* stack, const char* format, va_list args )
{
	const int size = (int)sizeof( stack->text );
	if ( stack->length < size - 1 )
	{
		int written = vsnprintf( stack->text + stack->length, (size_t)( size - stack->length ), format, args );
		if ( written > 0 )
		{
			stack->length = stack->length + written < size - 1 ? stack->length + written : size - 1;
		}
	}
}

static void kcc_text_appendf( kcc_text* stack, const char* format, ... )
{
	va_list args;
	va_start( args, format );
	kcc_text_append( stack, format, args );
	va_end( args );
}

int kcc_text_push( kcc_text* stack, const char* separator, const char* format, ... )
{
	int mark = stack->length;
	if ( mark > 0 )
	{
		kcc_text_appendf( stack, "%s", separator );
	}
	va_list args;
	va_start( args, format );
	kcc_text_append( stack, format, args );
	va_end( args );
	return mark;
}

void kcc_text_pop( kcc_text* stack, int mark )
{
	stack->length = mark;
	stack->text[mark] = '\0';
}

// A failure about one member: the member joins the path for the message.
static kcc_level_status kcc_fail_member( kcc_loader* L, const char* key, const char* problem )
{
	int mark = kcc_text_push( &L->path, ".", "%s", key );
	kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "'%s' %s", key, problem );
	kcc_text_pop( &L->path, mark );
	return L->status;
}

// The member key of a JSON object when it is there and of the right type (is), NULL when absent (an error when
// required) or of another type (an error naming the member and what it must be).
static const cJSON* kcc_json_member( kcc_loader* L, const cJSON* object, const char* key, bool required,
									 cJSON_bool ( *is )( const cJSON* ), const char* must_be )
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive( object, key );
	if ( item == NULL )
	{
		if ( required )
		{
			kcc_fail_member( L, key, "is missing" );
		}
		return NULL;
	}
	if ( is( item ) == false )
	{
		kcc_fail_member( L, key, must_be );
		return NULL;
	}
	return item;
}

kcc_level_status kcc_json_number( kcc_loader* L, const cJSON* object, const char* key, bool required,
								  double fallback, double* out )
{
	const cJSON* item = kcc_json_member( L, object, key, required, cJSON_IsNumber, "must be a number" );
	*out = fallback;
	if ( item != NULL && isfinite( item->valuedouble ) == 0 )
	{
		return kcc_fail_member( L, key, "is not a finite number" );
	}
	*out = item != NULL ? item->valuedouble : fallback;
	return L->status;
}

kcc_level_status kcc_json_int( kcc_loader* L, const cJSON* object, const char* key, bool required, double fallback,
							   double min, double max, double* out )
{
	double value;
	if ( kcc_json_number( L, object, key, required, fallback, &value ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( cJSON_GetObjectItemCaseSensitive( object, key ) == NULL )
	{
		*out = fallback; // absent: the fallback, whatever its range
		return KCC_LEVEL_OK;
	}
	if ( value != floor( value ) || value < min || value > max )
	{
		char problem[96];
		snprintf( problem, sizeof( problem ), "must be a whole number in [%.0f, %.0f] (is %.17g)", min, max, value );
		return kcc_fail_member( L, key, problem );
	}
	*out = value;
	return KCC_LEVEL_OK;
}

kcc_level_status kcc_json_bool( kcc_loader* L, const cJSON* object, const char* key, bool fallback, bool* out )
{
	const cJSON* item = kcc_json_member( L, object, key, false, cJSON_IsBool, "must be true or false" );
	*out = item != NULL ? cJSON_IsTrue( item ) != 0 : fallback;
	return L->status;
}

kcc_level_status kcc_json_string( kcc_loader* L, const cJSON* object, const char* key, bool required,
								  const char** out )
{
	const cJSON* item = kcc_json_member( L, object, key, required, cJSON_IsString, "must be a string" );
	*out = item != NULL && item->valuestring != NULL ? item->valuestring : "";
	return L->status;
}

kcc_level_status kcc_json_array( kcc_loader* L, const cJSON* object, const char* key, bool required,
								 const cJSON** out )
{
	*out = kcc_json_member( L, object, key, required, cJSON_IsArray, "must be an array" );
	return L->status;
}

kcc_level_status kcc_json_class( kcc_loader* L, const cJSON* object, const char** out )
{
	if ( kcc_json_string( L, object, "class", false, out ) != KCC_LEVEL_OK )
	{
		return L->status;
	}
	if ( ( *out )[0] != '\0' )
	{
		return KCC_LEVEL_OK;
	}
	return kcc_json_string( L, object, "type", false, out );
}

// One property value of a declared type into p (strings copied to the arena).
static kcc_level_status kcc_read_property_value( kcc_loader* L, const char* type, const cJSON* value,
												 kcc_level_property* p )
{
	p->string = "";
	if ( strcmp( type, "string" ) == 0 || strcmp( type, "color" ) == 0 || strcmp( type, "file" ) == 0 )
	{
		p->type = KCC_PROPERTY_STRING;
		if ( value != NULL && cJSON_IsString( value ) == false )
		{
			return kcc_fail_member( L, "value", "must be a string" );
		}
		p->string = kcc_arena_strdup( L->arena, value != NULL ? value->valuestring : "" );
	}
	else if ( strcmp( type, "int" ) == 0 || strcmp( type, "float" ) == 0 || strcmp( type, "object" ) == 0 )
	{
		p->type = type[0] == 'i' ? KCC_PROPERTY_INT : type[0] == 'f' ? KCC_PROPERTY_FLOAT : KCC_PROPERTY_OBJECT;
		if ( value == NULL || cJSON_IsNumber( value ) == false || isfinite( value->valuedouble ) == 0 )
		{
			return kcc_fail_member( L, "value", "must be a finite number" );
		}
		p->number = value->valuedouble;
		if ( p->type != KCC_PROPERTY_FLOAT && p->number != floor( p->number ) )
		{
			return kcc_fail_member( L, "value", "must be a whole number" );
		}
	}
	else if ( strcmp( type, "bool" ) == 0 )
	{
		p->type = KCC_PROPERTY_BOOL;
		if ( value == NULL || cJSON_IsBool( value ) == false )
		{
			return kcc_fail_member( L, "value", "must be true or false" );
		}
		p->boolean = cJSON_IsTrue( value ) != 0;
	}
	else
	{
		// A class value, or a type a newer Tiled writes: kept as its JSON text, never a reason to refuse a map.
		p->type = strcmp( type, "class" ) == 0 ? KCC_PROPERTY_CLASS : KCC_PROPERTY_OTHER;
		char* text = value != NULL ? cJSON_PrintUnformatted( value ) : NULL;
		p->string = kcc_arena_strdup( L->arena, text != NULL ? text : p->type == KCC_PROPERTY_CLASS ? "{}" : "null" );
		cJSON_free( text );
	}
	return p->string != NULL ? KCC_LEVEL_OK : kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
}

// The older form: "properties": { "name": value } with the type taken from the JSON value.
static const char* kcc_inferred_type( const cJSON* value )
{
	if ( cJSON_IsBool( value ) )
	{
		return "bool";
	}
	if ( cJSON_IsNumber( value ) )
	{
		return value->valuedouble == floor( value->valuedouble ) ? "int" : "float";
	}
	if ( cJSON_IsObject( value ) )
	{
		return "class";
	}
	return "string";
}

kcc_level_status kcc_json_properties( kcc_loader* L, const cJSON* owner, kcc_level_property** out, int* count )
{
	*out = NULL;
	*count = 0;
	const cJSON* list = cJSON_GetObjectItemCaseSensitive( owner, "properties" );
	if ( list == NULL )
	{
		return KCC_LEVEL_OK;
	}
	if ( cJSON_IsArray( list ) == false && cJSON_IsObject( list ) == false )
	{
		return kcc_fail_member( L, "properties", "must be an array" );
	}
	int mark = kcc_text_push( &L->path, ".", "%s", L->key_properties );
	kcc_json_property_list( L, list, out, count );
	kcc_text_pop( &L->path, mark );
	return L->status;
}

kcc_level_status kcc_json_property_list( kcc_loader* L, const cJSON* list, kcc_level_property** out, int* count )
{
	*out = NULL;
	*count = 0;
	if ( cJSON_IsArray( list ) == false && cJSON_IsObject( list ) == false )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "properties must be an array" );
	}
	int n = cJSON_GetArraySize( list );
	if ( n == 0 )
	{
		return KCC_LEVEL_OK;
	}
	kcc_level_property* properties = kcc_arena_alloc( L->arena, (size_t)n * sizeof( kcc_level_property ) );
	if ( properties == NULL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
	}
	int i = 0;
	for ( const cJSON* item = list->child; item != NULL && L->status == KCC_LEVEL_OK; item = item->next, ++i )
	{
		int item_mark;
		const char* name;
		const char* type = "string";
		const cJSON* value = item;
		if ( cJSON_IsArray( list ) )
		{
			item_mark = kcc_text_push( &L->path, "", "[%d]", i );
			if ( cJSON_IsObject( item ) == false )
			{
				kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "a property must be an object with name, type and value" );
				break;
			}
			if ( kcc_json_string( L, item, "name", true, &name ) != KCC_LEVEL_OK ||
				 kcc_json_string( L, item, "type", false, &type ) != KCC_LEVEL_OK )
			{
				break;
			}
			type = type[0] != '\0' ? type : "string";
			value = cJSON_GetObjectItemCaseSensitive( item, "value" );
		}
		else
		{
			name = item->string != NULL ? item->string : "";
			item_mark = kcc_text_push( &L->path, ".", "%s", name );
			type = kcc_inferred_type( item );
		}
		properties[i].name = kcc_arena_strdup( L->arena, name );
		if ( properties[i].name == NULL )
		{
			kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
		else
		{
			int what_mark = kcc_text_push( &L->what, ", ", "property '%s'", name );
			kcc_read_property_value( L, type, value, properties + i );
			kcc_text_pop( &L->what, what_mark );
		}
		kcc_text_pop( &L->path, item_mark );
	}
	*out = properties;
	*count = L->status == KCC_LEVEL_OK ? n : 0;
	return L->status;
}

const kcc_level_property* kcc_find_property( const kcc_level_property* properties, int count, const char* name )
{
	for ( int i = 0; i < count; ++i )
	{
		if ( strcmp( properties[i].name, name ) == 0 )
		{
			return properties + i;
		}
	}
	return NULL;
}

kcc_level_status kcc_property_bool( kcc_loader* L, const kcc_level_property* properties, int count,
									const char* name, bool fallback, bool* out )
{
	const kcc_level_property* p = kcc_find_property( properties, count, name );
	*out = fallback;
	if ( p == NULL )
	{
		return KCC_LEVEL_OK;
	}
	if ( p->type != KCC_PROPERTY_BOOL )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_INVALID, "property '%s' must be a bool", name );
	}
	*out = p->boolean;
	return KCC_LEVEL_OK;
}

kcc_level_status kcc_json_parse( kcc_loader* L, const char* text, size_t size, cJSON** out )
{
	const char* end = NULL;
	*out = cJSON_ParseWithLengthOpts( text, size, &end, false );
	size_t at = end != NULL && end >= text && end <= text + size ? (size_t)( end - text ) : size;
	if ( *out != NULL )
	{
		// cJSON stops after the first value: anything but white space after it is a syntax error too.
		while ( at < size && ( text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r' ) )
		{
			++at;
		}
		if ( at == size || text[at] == '\0' )
		{
			return KCC_LEVEL_OK;
		}
		cJSON_Delete( *out );
		*out = NULL;
	}
	// Where it stopped, and how deeply nested the values are there (outside strings).
	int line = 1, column = 1, depth = 0;
	bool in_string = false, escaped = false;
	for ( size_t i = 0; i < at; ++i )
	{
		column = text[i] == '\n' ? 1 : column + 1;
		line += text[i] == '\n';
		if ( in_string )
		{
			in_string = escaped || text[i] != '"';
			escaped = escaped == false && text[i] == '\\';
		}
		else
		{
			in_string = text[i] == '"';
			depth += text[i] == '[' || text[i] == '{';
			depth -= text[i] == ']' || text[i] == '}';
		}
	}
	if ( size == 0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_SYNTAX, "the file is empty" );
	}
	if ( depth >= CJSON_NESTING_LIMIT )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "values nest deeper than %d levels (at line %d, column %d)",
						 CJSON_NESTING_LIMIT, line, column );
	}
	return kcc_fail( L, KCC_LEVEL_ERROR_SYNTAX, "not valid JSON at line %d, column %d", line, column );
}

// Reads a whole file, at most limit bytes: false when it cannot be read, or when it is larger (*size then
// limit + 1, *data NULL): a device that never ends stops there.
static bool kcc_read_stdio( const char* path, size_t limit, char** data, size_t* size )
{
	*data = NULL;
	*size = 0;
	FILE* f = fopen( path, "rb" );
	if ( f == NULL )
	{
		return false;
	}
	size_t capacity = 0, length = 0;
	char* buffer = NULL;
	bool ok = true;
	for ( ;; )
	{
		if ( length == capacity )
		{
			if ( length > limit )
			{
				*size = length;
				ok = false;
				break;
			}
			size_t grown = capacity == 0 ? 65536 : capacity * 2;
			grown = grown > limit + 1 ? limit + 1 : grown;
			char* bigger = malloc( grown );
			if ( bigger == NULL )
			{
				ok = false;
				break;
			}
			if ( length > 0 )
			{
				memcpy( bigger, buffer, length );
			}
			free( buffer );
			buffer = bigger;
			capacity = grown;
		}
		size_t got = fread( buffer + length, 1, capacity - length, f );
		length += got;
		if ( got == 0 )
		{
			ok = ferror( f ) == 0;
			break;
		}
	}
	fclose( f );
	if ( length > limit )
	{
		*size = length;
		ok = false;
	}
	if ( ok == false )
	{
		free( buffer );
		return false;
	}
	*data = buffer;
	*size = length;
	return true;
}

kcc_level_status kcc_parse_document( kcc_loader* L, const char* text, size_t size, cJSON** out )
{
	size_t first = 0;
	if ( size >= 3 && (unsigned char)text[0] == 0xef && (unsigned char)text[1] == 0xbb && (unsigned char)text[2] == 0xbf )
	{
		first = 3; // a UTF-8 byte order mark
	}
	size_t bom = first;
	while ( first < size && ( text[first] == ' ' || text[first] == '\n' || text[first] == '\r' || text[first] == '\t' ) )
	{
		++first;
	}
	if ( first < size && text[first] == '<' )
	{
		return kcc_xml_parse( L, text, size, out );
	}
	return kcc_json_parse( L, text + bom, size - bom, out );
}

kcc_level_status kcc_open_json_file( kcc_loader* L, const char* path, const char* role, cJSON** out,
									 kcc_file_context* saved )
{
	*out = NULL;
	saved->file = L->file;
	saved->path = L->path;
	saved->from_role = L->from_role;
	saved->from_file = L->from_file;
	saved->from_path = L->from_path;
	char* text = NULL;
	size_t size = 0;
	if ( kcc_read_file( L, path, &text, &size ) != KCC_LEVEL_OK )
	{
		return L->status; // named in the referring file's context
	}
	L->from_role = role;
	L->from_file = L->file;
	L->from_path = L->path;
	L->file = path;
	kcc_text_pop( &L->path, 0 );
	kcc_parse_document( L, text, size, out );
	free( text );
	return L->status;
}

void kcc_close_json_file( kcc_loader* L, const kcc_file_context* saved )
{
	L->file = saved->file;
	L->path = saved->path;
	L->from_role = saved->from_role;
	L->from_file = saved->from_file;
	L->from_path = saved->from_path;
}

char* kcc_resolve_path( kcc_loader* L, const char* dir, const char* relative )
{
	size_t base = strlen( dir ), n = strlen( relative );
	bool absolute = relative[0] == '/' || relative[0] == '\\' || ( n > 1 && relative[1] == ':' );
	char* joined = kcc_arena_alloc( L->arena, base + n + 2 );
	if ( joined == NULL )
	{
		return NULL;
	}
	if ( absolute || base == 0 )
	{
		memcpy( joined, relative, n + 1 );
	}
	else
	{
		memcpy( joined, dir, base );
		joined[base] = '/';
		memcpy( joined + base + 1, relative, n + 1 );
	}
	// Drop "./" and fold "name/../" so two paths to one file compare equal (a template's tileset and the map's).
	char* out = joined;
	const char* in = joined;
	while ( *in != '\0' )
	{
		const char* end = in;
		while ( *end != '\0' && *end != '/' && *end != '\\' )
		{
			++end;
		}
		size_t length = (size_t)( end - in );
		bool leading = out == joined;
		if ( length == 1 && in[0] == '.' && *end != '\0' )
		{
			// skip "./"
		}
		else if ( length == 2 && in[0] == '.' && in[1] == '.' && leading == false )
		{
			// remove the last written component, unless it is itself ".." or the root
			char* last = out - 1; // the separator written after it
			char* start = last;
			while ( start > joined && start[-1] != '/' && start[-1] != '\\' )
			{
				--start;
			}
			bool parent = last - start == 2 && start[0] == '.' && start[1] == '.';
			if ( parent || last == start )
			{
				memmove( out, in, length );
				out += length;
				if ( *end != '\0' )
				{
					*out++ = '/';
				}
			}
			else
			{
				out = start;
			}
		}
		else
		{
			memmove( out, in, length );
			out += length;
			if ( *end != '\0' )
			{
				*out++ = '/';
			}
		}
		in = *end != '\0' ? end + 1 : end;
	}
	*out = '\0';
	return joined;
}

const char* kcc_directory_of( kcc_arena* arena, const char* path )
{
	const char* slash = strrchr( path, '/' );
	const char* backslash = strrchr( path, '\\' );
	slash = backslash != NULL && ( slash == NULL || backslash > slash ) ? backslash : slash;
	size_t n = slash != NULL ? (size_t)( slash - path ) : 0;
	if ( slash == path )
	{
		n = 1; // the root directory
	}
	char* dir = kcc_arena_alloc( arena, n + 1 );
	if ( dir != NULL )
	{
		memcpy( dir, path, n );
		dir[n] = '\0';
	}
	return dir;
}

kcc_level_status kcc_read_file( kcc_loader* L, const char* path, char** data, size_t* size )
{
	size_t limit = L->def->max_file_size;
	*data = NULL;
	*size = 0;
	bool ok = L->def->read_file != NULL ? L->def->read_file( path, L->def->read_user, data, size )
										: kcc_read_stdio( path, limit, data, size );
	if ( ok == false )
	{
		*data = NULL; // a hook's *data is undefined when it says no
		if ( L->def->read_file == NULL && *size > limit )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "file '%s' is larger than max_file_size (%zu bytes)", path,
							 limit );
		}
		return kcc_fail( L, KCC_LEVEL_ERROR_IO, "cannot read file '%s'", path );
	}
	if ( *data == NULL && *size > 0 )
	{
		return kcc_fail( L, KCC_LEVEL_ERROR_IO, "read_file returned true but no data for '%s' (%zu bytes)", path,
						 *size );
	}
	if ( *size > limit )
	{
		free( *data );
		*data = NULL;
		return kcc_fail( L, KCC_LEVEL_ERROR_LIMIT, "file '%s' is larger than max_file_size (%zu bytes)", path, limit );
	}
	if ( *data == NULL )
	{
		// An empty file given as no buffer: one byte so that the readers have a text to point at.
		*data = malloc( 1 );
		if ( *data == NULL )
		{
			return kcc_fail( L, KCC_LEVEL_ERROR_MEMORY, "out of memory" );
		}
	}
	return KCC_LEVEL_OK;
}
