// SPDX-License-Identifier: MIT
// Compiled by the add_subdirectory consumer with -Wall: the unused variable warns on purpose. kcc2d must leave
// the game's warnings as warnings (no -Werror of its own reaching the game's targets).
int kcc_consumer_warns( void );

int kcc_consumer_warns( void )
{
	int unused_on_purpose;
	return 0;
}
