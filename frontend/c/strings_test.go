package c

import (
	"testing"

	"ncmc/ncmc"
)

// TestStrings: string literals (as pointers, array initializers, indexed)
// and strlen, strcmp, strncmp, strcpy, strncpy with C's meaning, a buggy
// variant of each (a wrong expectation is a violation), and a racing
// writer whose half-written string strlen can see.
func TestStrings(t *testing.T) {
	const inc = "#include <string.h>\n"
	runSyncCases(t, []syncCase{
		{name: "literals-and-functions", want: ncmc.Verified, src: inc + `
char g[8] = "ab"; char h[] = "xyz"; const char *p = "hello";
int main(void) {
	char l[] = "hi"; char m[6] = "ok";
	assert(sizeof h == 4 && h[3] == 0 && g[2] == 0 && g[7] == 0 && l[2] == 0 && m[5] == 0);
	assert(strlen(p) == 5 && strlen("") == 0 && strlen(h) == 3 && "abc"[1] == 'b');
	assert(strcmp("abc", "abc") == 0 && strcmp("abc", "abd") < 0 && strcmp("b", "abc") > 0 && strcmp("ab", "abc") < 0);
	assert(strcmp("\xff", "a") > 0);   /* compared as unsigned char */
	assert(strncmp("abcx", "abcy", 3) == 0 && strncmp("abcx", "abcy", 4) < 0 && strncmp("a", "b", 0) == 0);
	char buf[8] = "";
	assert(strcpy(buf, p) == buf && strcmp(buf, "hello") == 0);
	strncpy(buf, "xy", 6);
	assert(buf[0] == 'x' && buf[2] == 0 && buf[5] == 0 && buf[6] == 0);   /* padded to 6, buf[6] from the initializer */
	strncpy(buf, "abcdefgh", 3);
	assert(buf[2] == 'c' && buf[3] == 0);
	return 0;
}`},
		{name: "strlen-buggy", want: ncmc.Violation, msg: "strlen", src: inc + `
int main(void) { assert(strlen("abc") == 4); return 0; }`},
		{name: "strcmp-buggy", want: ncmc.Violation, msg: "strcmp", src: inc + `
int main(void) { assert(strcmp("abc", "abd") > 0); return 0; }`},
		{name: "strncpy-no-nul-buggy", want: ncmc.Violation, msg: "buf[3] == 0", src: inc + `
int main(void) { char buf[4] = "zzz"; strncpy(buf, "abcdef", 3); assert(buf[3] == 0 && buf[2] == 'c'); buf[3] = 'q'; assert(buf[3] == 0); return 0; }`},
		{name: "strcpy-overflow", want: ncmc.Violation, msg: "invalid memory address", src: inc + `
char small[3];
int main(void) { strcpy(small, "abcd"); return 0; }`},
		{name: "racing-writer", want: ncmc.Violation, msg: "strlen(s) == 0", src: inc + `
char s[4];
void *w(void *a) { strcpy(s, "ab"); return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); size_t n = strlen(s); assert(strlen(s) == 0 || n != 1); return 0; }`},
	})
}
