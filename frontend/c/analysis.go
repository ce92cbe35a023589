package c

import (
	"reflect"

	"modernc.org/cc/v4"
)

// walk visits n and every AST node reachable from it through exported
// pointer, interface and slice fields, depth first (pre-order, fields in
// declaration order). When f returns false the children of that node are
// skipped. The traversal keeps its own stack, so a deep AST (a long
// statement list or operator chain, which cc represents as nested nodes)
// costs heap, not goroutine stack.
func walk(n any, f func(n any) bool) {
	stack := []reflect.Value{reflect.ValueOf(n)}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() != reflect.Ptr || v.IsNil() {
			continue
		}
		if _, ok := v.Interface().(cc.Node); ok {
			if !f(v.Interface()) {
				continue
			}
		}
		e := v.Elem()
		if e.Kind() != reflect.Struct {
			continue
		}
		t := e.Type()
		// Children are pushed last to first, so the first is visited next.
		for i := e.NumField() - 1; i >= 0; i-- {
			sf := t.Field(i)
			if !sf.IsExported() || sf.Anonymous {
				continue
			}
			switch fv := e.Field(i); fv.Kind() {
			case reflect.Ptr, reflect.Interface:
				stack = append(stack, fv)
			}
		}
	}
}

// unparen strips parentheses (and __extension__-free casts are kept).
func unparen(n cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				if el, ok := x.ExpressionList.(*cc.ExpressionList); ok && el.ExpressionList != nil {
					return n // a parenthesized comma expression
				}
				n = x.ExpressionList
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				n = x.AssignmentExpression
				continue
			}
		case *cc.ConstantExpression:
			n = x.ConditionalExpression
			continue
		}
		return n
	}
}

// identDecl returns the declarator an identifier expression names, or nil.
func identDecl(n cc.ExpressionNode) *cc.Declarator {
	if n == nil {
		return nil
	}
	if p, ok := unparen(n).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if d, ok := p.ResolvedTo().(*cc.Declarator); ok {
			return d
		}
	}
	return nil
}

// identName returns the name of an identifier expression, or "".
func identName(n cc.ExpressionNode) string {
	if p, ok := unparen(n).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		return p.Token.SrcStr()
	}
	return ""
}

// callArgs returns the arguments of a call expression.
func callArgs(pe *cc.PostfixExpression) []cc.ExpressionNode {
	var args []cc.ExpressionNode
	for l := pe.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	return args
}

// calleeName returns the name of the function a call calls directly, or "".
func calleeName(pe *cc.PostfixExpression) string {
	fn := unparen(pe.PostfixExpression)
	// (&f)(...) and (*f)(...) call f too.
	if u, ok := fn.(*cc.UnaryExpression); ok && (u.Case == cc.UnaryExpressionAddrof || u.Case == cc.UnaryExpressionDeref) {
		fn = unparen(u.CastExpression)
	}
	return identName(fn)
}

// outParams lists, for builtins that write through a pointer argument, the
// argument positions where "&local" does not make the local live in memory:
// the front end writes the local directly.
var outParams = map[string][]int{
	"pthread_create":              {0},
	"pthread_key_create":          {0},
	"tss_create":                  {0},
	"pthread_join":                {1},
	"thrd_create":                 {0},
	"thrd_join":                   {1},
	"sem_getvalue":                {1},
	"__atomic_load":               {1},
	"__atomic_store":              {1},
	"__atomic_exchange":           {1, 2},
	"__atomic_compare_exchange":   {1, 2},
	"__atomic_compare_exchange_n": {1},
}

// funcFacts is what the pre-pass learns about a function body.
type funcFacts struct {
	// escaped locals: their address is taken (other than as an out-param
	// of a builtin), so they must live in memory.
	escaped map[*cc.Declarator]bool
	// nonTruthUse: locals read somewhere other than as a truth value.
	nonTruthUse map[*cc.Declarator]bool
}

// analyze runs the pre-pass over a function body and fills in the call
// facts of fi.
func (tr *translator) analyze(fi *fnInfo) *funcFacts {
	ff := &funcFacts{escaped: map[*cc.Declarator]bool{}, nonTruthUse: map[*cc.Declarator]bool{}}
	exempt := map[*cc.UnaryExpression]bool{}
	truth := map[cc.ExpressionNode]bool{}
	writes := map[cc.ExpressionNode]bool{}
	markTruth := func(n cc.ExpressionNode) {
		if n != nil {
			truth[unparen(n)] = true
		}
	}
	callees := map[*cc.PrimaryExpression]bool{}
	walk(fi.def.CompoundStatement, func(n any) bool {
		switch x := n.(type) {
		case *cc.PostfixExpression:
			if x.Case != cc.PostfixExpressionCall {
				return true
			}
			if p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression); ok {
				callees[p] = true
			}
			name := calleeName(x)
			if name == "" {
				return true
			}
			if _, defined := tr.funcs[name]; defined {
				fi.calls[name] = true
				return true
			}
			if name == "pthread_mutex_destroy" || name == "mtx_destroy" {
				tr.destroysMutex = true
			}
			if i := startArg(name); i >= 0 {
				fi.spawns = true
				if args := callArgs(x); len(args) > i {
					if s := startRoutine(args[i]); s != "" {
						fi.starts[s] = true
					}
				}
			}
			if pos, ok := outParams[name]; ok {
				args := callArgs(x)
				for _, i := range pos {
					if i < len(args) {
						if u, ok := unparen(args[i]).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof && identDecl(u.CastExpression) != nil {
							exempt[u] = true
						}
					}
				}
			}
			if name == "__VERIFIER_assume" || name == "assume_abort_if_not" {
				if args := callArgs(x); len(args) == 1 {
					markTruth(args[0])
				}
			}
		case *cc.SelectionStatement:
			if x.Case != cc.SelectionStatementSwitch {
				markTruth(x.ExpressionList)
			}
		case *cc.IterationStatement:
			switch x.Case {
			case cc.IterationStatementWhile, cc.IterationStatementDo:
				markTruth(x.ExpressionList)
			case cc.IterationStatementFor:
				markTruth(x.ExpressionList2)
			case cc.IterationStatementForDecl:
				markTruth(x.ExpressionList)
			}
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionNot:
				markTruth(x.CastExpression)
			case cc.UnaryExpressionAddrof:
				if !exempt[x] {
					if d := identDecl(x.CastExpression); d != nil {
						ff.escaped[d] = true
					}
				}
			}
		case *cc.LogicalAndExpression:
			if x.Case == cc.LogicalAndExpressionLAnd {
				markTruth(x.LogicalAndExpression)
				markTruth(x.InclusiveOrExpression)
			}
		case *cc.LogicalOrExpression:
			if x.Case == cc.LogicalOrExpressionLOr {
				markTruth(x.LogicalOrExpression)
				markTruth(x.LogicalAndExpression)
			}
		case *cc.ConditionalExpression:
			if x.Case == cc.ConditionalExpressionCond {
				markTruth(x.LogicalOrExpression)
			}
		case *cc.AssignmentExpression:
			if x.Case == cc.AssignmentExpressionAssign {
				writes[unparen(x.UnaryExpression)] = true
			}
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionIdent {
				if d, ok := x.ResolvedTo().(*cc.Declarator); ok && !truth[x] && !writes[x] {
					ff.nonTruthUse[d] = true
				}
				if d, ok := x.ResolvedTo().(*cc.Declarator); ok && !callees[x] && d.Type() != nil && d.Type().Kind() == cc.Function {
					// A function used as a value: a possible target of
					// calls through pointers (funcptr.go).
					if g := tr.funcs[d.Name()]; g != nil {
						fi.refs[d.Name()] = true
						g.addrTaken = true
					}
				}
			}
		}
		return true
	})
	return ff
}

// startArg returns the index of the start routine among the arguments of
// a modelled function that creates a thread (pthread_create and GenMC's
// __VERIFIER_spawn), or -1 if name is not one.
func startArg(name string) int {
	switch name {
	case "pthread_create":
		return 2
	case "thrd_create":
		return 1
	case "__VERIFIER_spawn", "__VERIFIER_spawn_symmetric":
		return 0
	}
	return -1
}

// startRoutine returns the name of the function a pthread_create start
// argument designates (through casts and &), or "".
func startRoutine(e cc.ExpressionNode) string {
	start := unparen(e)
	for {
		if c, ok := start.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast {
			start = unparen(c.CastExpression)
			continue
		}
		if u, ok := start.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
			start = unparen(u.CastExpression)
			continue
		}
		break
	}
	return identName(start)
}

// asExpr returns n as an expression node, or nil.
func asExpr(n any) cc.ExpressionNode {
	if e, ok := n.(cc.ExpressionNode); ok {
		return e
	}
	return nil
}
