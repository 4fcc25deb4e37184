class mpi.CartParms
class mpi.Cartcomm
class mpi.Comm
class mpi.Datatype abstract
class mpi.Errhandler
class mpi.GraphParms
class mpi.Graphcomm
class mpi.Group
class mpi.Intercomm
class mpi.Intracomm
class mpi.MPI
class mpi.MPIException
class mpi.Op
class mpi.Prequest
class mpi.Request
class mpi.ShiftParms
class mpi.Status
class mpi.User_function abstract
ctor mpi.Datatype()
ctor mpi.GraphParms()
ctor mpi.MPI()
ctor mpi.MPIException()
ctor mpi.MPIException(java.lang.String)
ctor mpi.MPIException(java.lang.Throwable)
ctor mpi.Op(mpi.User_function,boolean)
ctor mpi.Op(mpi.User_function,boolean,int)
ctor mpi.Status()
ctor mpi.User_function()
field mpi.CartParms#coords int[]
field mpi.CartParms#dims int[]
field mpi.CartParms#periods boolean[]
field mpi.Cartcomm#group mpi.Group
field mpi.Comm#group mpi.Group
field mpi.Datatype#baseType int
field mpi.GraphParms#edges int[]
field mpi.GraphParms#index int[]
field mpi.Graphcomm#group mpi.Group
field mpi.Group#code int
field mpi.Intercomm#group mpi.Group
field mpi.Intracomm#group mpi.Group
field mpi.Op#opCode int
field mpi.ShiftParms#rank_dest int
field mpi.ShiftParms#rank_source int
field mpi.Status#count int
field mpi.Status#countInBytes int
field mpi.Status#index int
field mpi.Status#numEls int
field mpi.Status#source int
field mpi.Status#tag int
field static mpi.Group#EMPTY int
field static mpi.MPI#ANY_SOURCE int
field static mpi.MPI#ANY_TAG int
field static mpi.MPI#BAND mpi.Op
field static mpi.MPI#BOOLEAN mpi.Datatype
field static mpi.MPI#BOR mpi.Op
field static mpi.MPI#BSEND_OVERHEAD int
field static mpi.MPI#BXOR mpi.Op
field static mpi.MPI#BYTE mpi.Datatype
field static mpi.MPI#CART int
field static mpi.MPI#CHAR mpi.Datatype
field static mpi.MPI#COMM_NULL mpi.Comm
field static mpi.MPI#COMM_SELF mpi.Comm
field static mpi.MPI#COMM_WORLD mpi.Intracomm
field static mpi.MPI#CONGRUENT int
field static mpi.MPI#DEBUG boolean
field static mpi.MPI#DOUBLE mpi.Datatype
field static mpi.MPI#DOUBLE2 mpi.Datatype
field static mpi.MPI#EMPTY_STATUS mpi.Status
field static mpi.MPI#ERRORS_ARE_FATAL mpi.Errhandler
field static mpi.MPI#ERRORS_RETURN mpi.Errhandler
field static mpi.MPI#FLOAT mpi.Datatype
field static mpi.MPI#FLOAT2 mpi.Datatype
field static mpi.MPI#GRAPH int
field static mpi.MPI#GROUP_EMPTY mpi.Group
field static mpi.MPI#GROUP_NULL mpi.Group
field static mpi.MPI#HOST int
field static mpi.MPI#IDENT int
field static mpi.MPI#INT mpi.Datatype
field static mpi.MPI#INT2 mpi.Datatype
field static mpi.MPI#IO int
field static mpi.MPI#LAND mpi.Op
field static mpi.MPI#LB mpi.Datatype
field static mpi.MPI#LONG mpi.Datatype
field static mpi.MPI#LONG2 mpi.Datatype
field static mpi.MPI#LOR mpi.Op
field static mpi.MPI#LXOR mpi.Op
field static mpi.MPI#MAX mpi.Op
field static mpi.MPI#MAXLOC mpi.Op
field static mpi.MPI#MIN mpi.Op
field static mpi.MPI#MINLOC mpi.Op
field static mpi.MPI#NULL mpi.Datatype
field static mpi.MPI#NUM_OF_PROCESSORS int
field static mpi.MPI#OBJECT mpi.Datatype
field static mpi.MPI#PACKED mpi.Datatype
field static mpi.MPI#PROC_NULL int
field static mpi.MPI#PROD mpi.Op
field static mpi.MPI#RECV_OVERHEAD int
field static mpi.MPI#REQUEST_NULL mpi.Request
field static mpi.MPI#SEND_OVERHEAD int
field static mpi.MPI#SHORT mpi.Datatype
field static mpi.MPI#SHORT2 mpi.Datatype
field static mpi.MPI#SIMILAR int
field static mpi.MPI#SUM mpi.Op
field static mpi.MPI#TAG_UB int
field static mpi.MPI#THREAD_FUNNELED int
field static mpi.MPI#THREAD_MULTIPLE int
field static mpi.MPI#THREAD_SERIALIZED int
field static mpi.MPI#THREAD_SINGLE int
field static mpi.MPI#UB mpi.Datatype
field static mpi.MPI#UNDEFINED int
field static mpi.MPI#UNEQUAL int
field static mpi.MPI#isOldSelected boolean
method abstract mpi.User_function#Call(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype) void
method mpi.Cartcomm#Abort(int) void
method mpi.Cartcomm#Allgather(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype) void
method mpi.Cartcomm#Allgatherv(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype) void
method mpi.Cartcomm#Allreduce(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op) void
method mpi.Cartcomm#Alltoall(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype) void
method mpi.Cartcomm#Alltoallv(java.lang.Object,int,int[],int[],mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype) void
method mpi.Cartcomm#Attr_delete(int) void
method mpi.Cartcomm#Attr_get(int) java.lang.Object
method mpi.Cartcomm#Barrier() void
method mpi.Cartcomm#Bcast(java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Cartcomm#Bsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Cartcomm#Bsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Cartcomm#Coords(int) int[]
method mpi.Cartcomm#Create(mpi.Group) mpi.Intracomm
method mpi.Cartcomm#Create_cart(int[],boolean[],boolean) mpi.Cartcomm
method mpi.Cartcomm#Create_graph(int[],int[],boolean) mpi.Graphcomm
method mpi.Cartcomm#Create_intercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Cartcomm#Free() void
method mpi.Cartcomm#Gather(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Cartcomm#Gatherv(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype,int) void
method mpi.Cartcomm#Get() mpi.CartParms
method mpi.Cartcomm#Group() mpi.Group
method mpi.Cartcomm#Ibsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Cartcomm#Iprobe(int,int) mpi.Status
method mpi.Cartcomm#Irecv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Cartcomm#Irsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Cartcomm#Isend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Cartcomm#Issend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Cartcomm#Map(int[],boolean[]) int
method mpi.Cartcomm#Pack_size(int,mpi.Datatype) int
method mpi.Cartcomm#Probe(int,int) mpi.Status
method mpi.Cartcomm#Rank() int
method mpi.Cartcomm#Rank(int[]) int
method mpi.Cartcomm#Recv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Cartcomm#Recv_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Cartcomm#Reduce(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op,int) void
method mpi.Cartcomm#Reduce_scatter(java.lang.Object,int,java.lang.Object,int,int[],mpi.Datatype,mpi.Op) void
method mpi.Cartcomm#Rsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Cartcomm#Rsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Cartcomm#Scan(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op) void
method mpi.Cartcomm#Scatter(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Cartcomm#Scatterv(java.lang.Object,int,int[],int[],mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Cartcomm#Send(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Cartcomm#Send_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Cartcomm#Sendrecv(java.lang.Object,int,int,mpi.Datatype,int,int,java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Cartcomm#Sendrecv_replace(java.lang.Object,int,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Cartcomm#Shift(int,int) mpi.ShiftParms
method mpi.Cartcomm#Size() int
method mpi.Cartcomm#Split(int,int) mpi.Intracomm
method mpi.Cartcomm#Ssend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Cartcomm#Ssend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Cartcomm#Sub(boolean[]) mpi.Cartcomm
method mpi.Cartcomm#Test_inter() boolean
method mpi.Cartcomm#Topo_test() int
method mpi.Cartcomm#clone() java.lang.Object
method mpi.Comm#Abort(int) void
method mpi.Comm#Attr_delete(int) void
method mpi.Comm#Attr_get(int) java.lang.Object
method mpi.Comm#Bsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Comm#Bsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#Create_intercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Comm#Free() void
method mpi.Comm#Group() mpi.Group
method mpi.Comm#Ibsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#Iprobe(int,int) mpi.Status
method mpi.Comm#Irecv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#Irsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#Isend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#Issend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#Pack_size(int,mpi.Datatype) int
method mpi.Comm#Probe(int,int) mpi.Status
method mpi.Comm#Rank() int
method mpi.Comm#Recv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Comm#Recv_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#Rsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Comm#Rsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#Send(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Comm#Send_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#Sendrecv(java.lang.Object,int,int,mpi.Datatype,int,int,java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Comm#Sendrecv_replace(java.lang.Object,int,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Comm#Size() int
method mpi.Comm#Ssend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Comm#Ssend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#Test_inter() boolean
method mpi.Comm#Topo_test() int
method mpi.Comm#clone() java.lang.Object
method mpi.Datatype#Commit() void
method mpi.Datatype#Extent() int
method mpi.Datatype#Lb() int
method mpi.Datatype#Size() int
method mpi.Datatype#Ub() int
method mpi.Datatype#finalize() void
method mpi.Datatype#free() void
method mpi.Datatype#getByteSize() int
method mpi.Datatype#getType() int
method mpi.Graphcomm#Abort(int) void
method mpi.Graphcomm#Allgather(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype) void
method mpi.Graphcomm#Allgatherv(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype) void
method mpi.Graphcomm#Allreduce(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op) void
method mpi.Graphcomm#Alltoall(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype) void
method mpi.Graphcomm#Alltoallv(java.lang.Object,int,int[],int[],mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype) void
method mpi.Graphcomm#Attr_delete(int) void
method mpi.Graphcomm#Attr_get(int) java.lang.Object
method mpi.Graphcomm#Barrier() void
method mpi.Graphcomm#Bcast(java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Graphcomm#Bsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Graphcomm#Bsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Graphcomm#Create(mpi.Group) mpi.Intracomm
method mpi.Graphcomm#Create_cart(int[],boolean[],boolean) mpi.Cartcomm
method mpi.Graphcomm#Create_graph(int[],int[],boolean) mpi.Graphcomm
method mpi.Graphcomm#Create_intercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Graphcomm#Free() void
method mpi.Graphcomm#Gather(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Graphcomm#Gatherv(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype,int) void
method mpi.Graphcomm#Get() mpi.GraphParms
method mpi.Graphcomm#Group() mpi.Group
method mpi.Graphcomm#Ibsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Graphcomm#Iprobe(int,int) mpi.Status
method mpi.Graphcomm#Irecv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Graphcomm#Irsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Graphcomm#Isend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Graphcomm#Issend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Graphcomm#Map(int[],int[]) int
method mpi.Graphcomm#Neighbours(int) int[]
method mpi.Graphcomm#Pack_size(int,mpi.Datatype) int
method mpi.Graphcomm#Probe(int,int) mpi.Status
method mpi.Graphcomm#Rank() int
method mpi.Graphcomm#Recv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Graphcomm#Recv_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Graphcomm#Reduce(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op,int) void
method mpi.Graphcomm#Reduce_scatter(java.lang.Object,int,java.lang.Object,int,int[],mpi.Datatype,mpi.Op) void
method mpi.Graphcomm#Rsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Graphcomm#Rsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Graphcomm#Scan(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op) void
method mpi.Graphcomm#Scatter(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Graphcomm#Scatterv(java.lang.Object,int,int[],int[],mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Graphcomm#Send(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Graphcomm#Send_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Graphcomm#Sendrecv(java.lang.Object,int,int,mpi.Datatype,int,int,java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Graphcomm#Sendrecv_replace(java.lang.Object,int,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Graphcomm#Size() int
method mpi.Graphcomm#Split(int,int) mpi.Intracomm
method mpi.Graphcomm#Ssend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Graphcomm#Ssend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Graphcomm#Test_inter() boolean
method mpi.Graphcomm#Topo_test() int
method mpi.Graphcomm#clone() java.lang.Object
method mpi.Group#Excl(int[]) mpi.Group
method mpi.Group#Incl(int[]) mpi.Group
method mpi.Group#Range_excl(int[][]) mpi.Group
method mpi.Group#Range_incl(int[][]) mpi.Group
method mpi.Group#Rank() int
method mpi.Group#Size() int
method mpi.Group#finalize() void
method mpi.Group#free() void
method mpi.Intercomm#Abort(int) void
method mpi.Intercomm#Attr_delete(int) void
method mpi.Intercomm#Attr_get(int) java.lang.Object
method mpi.Intercomm#Bsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intercomm#Bsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#Create_intercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Intercomm#Free() void
method mpi.Intercomm#Group() mpi.Group
method mpi.Intercomm#Ibsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#Iprobe(int,int) mpi.Status
method mpi.Intercomm#Irecv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#Irsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#Isend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#Issend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#Merge(boolean) mpi.Intracomm
method mpi.Intercomm#Pack_size(int,mpi.Datatype) int
method mpi.Intercomm#Probe(int,int) mpi.Status
method mpi.Intercomm#Rank() int
method mpi.Intercomm#Recv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intercomm#Recv_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#Remote_group() mpi.Group
method mpi.Intercomm#Remote_size() int
method mpi.Intercomm#Rsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intercomm#Rsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#Send(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intercomm#Send_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#Sendrecv(java.lang.Object,int,int,mpi.Datatype,int,int,java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intercomm#Sendrecv_replace(java.lang.Object,int,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Intercomm#Size() int
method mpi.Intercomm#Ssend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intercomm#Ssend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#Test_inter() boolean
method mpi.Intercomm#Topo_test() int
method mpi.Intercomm#clone() java.lang.Object
method mpi.Intracomm#Abort(int) void
method mpi.Intracomm#Allgather(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype) void
method mpi.Intracomm#Allgatherv(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype) void
method mpi.Intracomm#Allreduce(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#Alltoall(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype) void
method mpi.Intracomm#Alltoallv(java.lang.Object,int,int[],int[],mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype) void
method mpi.Intracomm#Attr_delete(int) void
method mpi.Intracomm#Attr_get(int) java.lang.Object
method mpi.Intracomm#Barrier() void
method mpi.Intracomm#Bcast(java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Intracomm#Bsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intracomm#Bsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#Create(mpi.Group) mpi.Intracomm
method mpi.Intracomm#Create_cart(int[],boolean[],boolean) mpi.Cartcomm
method mpi.Intracomm#Create_graph(int[],int[],boolean) mpi.Graphcomm
method mpi.Intracomm#Create_intercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Intracomm#Free() void
method mpi.Intracomm#Gather(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Intracomm#Gatherv(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int[],int[],mpi.Datatype,int) void
method mpi.Intracomm#Group() mpi.Group
method mpi.Intracomm#Ibsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#Iprobe(int,int) mpi.Status
method mpi.Intracomm#Irecv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#Irsend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#Isend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#Issend(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#Pack_size(int,mpi.Datatype) int
method mpi.Intracomm#Probe(int,int) mpi.Status
method mpi.Intracomm#Rank() int
method mpi.Intracomm#Recv(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intracomm#Recv_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#Reduce(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op,int) void
method mpi.Intracomm#Reduce_scatter(java.lang.Object,int,java.lang.Object,int,int[],mpi.Datatype,mpi.Op) void
method mpi.Intracomm#Rsend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intracomm#Rsend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#Scan(java.lang.Object,int,java.lang.Object,int,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#Scatter(java.lang.Object,int,int,mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Intracomm#Scatterv(java.lang.Object,int,int[],int[],mpi.Datatype,java.lang.Object,int,int,mpi.Datatype,int) void
method mpi.Intracomm#Send(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intracomm#Send_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#Sendrecv(java.lang.Object,int,int,mpi.Datatype,int,int,java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intracomm#Sendrecv_replace(java.lang.Object,int,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Intracomm#Size() int
method mpi.Intracomm#Split(int,int) mpi.Intracomm
method mpi.Intracomm#Ssend(java.lang.Object,int,int,mpi.Datatype,int,int) void
method mpi.Intracomm#Ssend_init(java.lang.Object,int,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#Test_inter() boolean
method mpi.Intracomm#Topo_test() int
method mpi.Intracomm#clone() java.lang.Object
method mpi.MPIException#addSuppressed(java.lang.Throwable) void
method mpi.MPIException#fillInStackTrace() java.lang.Throwable
method mpi.MPIException#getCause() java.lang.Throwable
method mpi.MPIException#getLocalizedMessage() java.lang.String
method mpi.MPIException#getMessage() java.lang.String
method mpi.MPIException#getStackTrace() java.lang.StackTraceElement[]
method mpi.MPIException#getSuppressed() java.lang.Throwable[]
method mpi.MPIException#initCause(java.lang.Throwable) java.lang.Throwable
method mpi.MPIException#printStackTrace() void
method mpi.MPIException#printStackTrace(java.io.PrintStream) void
method mpi.MPIException#printStackTrace(java.io.PrintWriter) void
method mpi.MPIException#setStackTrace(java.lang.StackTraceElement[]) void
method mpi.MPIException#toString() java.lang.String
method mpi.Op#finalize() void
method mpi.Op#free() void
method mpi.Prequest#Cancel() void
method mpi.Prequest#Is_null() boolean
method mpi.Prequest#Start() void
method mpi.Prequest#Test() mpi.Status
method mpi.Prequest#Wait() mpi.Status
method mpi.Prequest#finalize() void
method mpi.Request#Cancel() void
method mpi.Request#Is_null() boolean
method mpi.Request#Test() mpi.Status
method mpi.Request#Wait() mpi.Status
method mpi.Request#finalize() void
method mpi.Status#Get_count(mpi.Datatype) int
method mpi.Status#Get_elements(mpi.Datatype) int
method mpi.Status#Test_cancelled() boolean
method mpi.Status#free() void
method static mpi.Cartcomm#Compare(mpi.Comm,mpi.Comm) int
method static mpi.Cartcomm#Dims_create(int,int[]) void
method static mpi.Comm#Compare(mpi.Comm,mpi.Comm) int
method static mpi.Datatype#Contiguous(int,mpi.Datatype) mpi.Datatype
method static mpi.Datatype#Hindexed(int[],int[],mpi.Datatype) mpi.Datatype
method static mpi.Datatype#Hvector(int,int,int,mpi.Datatype) mpi.Datatype
method static mpi.Datatype#Indexed(int[],int[],mpi.Datatype) mpi.Datatype
method static mpi.Datatype#Struct(int[],int[],mpi.Datatype[]) mpi.Datatype
method static mpi.Datatype#Vector(int,int,int,mpi.Datatype) mpi.Datatype
method static mpi.Graphcomm#Compare(mpi.Comm,mpi.Comm) int
method static mpi.Group#Compare(mpi.Group,mpi.Group) int
method static mpi.Group#Difference(mpi.Group,mpi.Group) mpi.Group
method static mpi.Group#Intersection(mpi.Group,mpi.Group) mpi.Group
method static mpi.Group#Translate_ranks(mpi.Group,int[],mpi.Group) int[]
method static mpi.Group#Union(mpi.Group,mpi.Group) mpi.Group
method static mpi.Intercomm#Compare(mpi.Comm,mpi.Comm) int
method static mpi.Intracomm#Compare(mpi.Comm,mpi.Comm) int
method static mpi.MPI#Buffer_attach(java.nio.ByteBuffer) void
method static mpi.MPI#Buffer_detach() void
method static mpi.MPI#Errorhandler_get() mpi.Errhandler
method static mpi.MPI#Errorhandler_set(mpi.Errhandler) void
method static mpi.MPI#Finalize() void
method static mpi.MPI#Get_processor_name() java.lang.String
method static mpi.MPI#Init(java.lang.String[]) java.lang.String[]
method static mpi.MPI#Initialized() boolean
method static mpi.MPI#Wtick() double
method static mpi.MPI#Wtime() double
method static mpi.MPI#initThread(int,int,java.lang.String[]) java.lang.String[]
method static mpi.MPI#isMainThread() boolean
method static mpi.MPI#queryThread() int
method static mpi.Prequest#Startall(mpi.Prequest[]) void
method static mpi.Prequest#Testall(mpi.Request[]) mpi.Status[]
method static mpi.Prequest#Testany(mpi.Request[]) mpi.Status
method static mpi.Prequest#Testsome(mpi.Request[]) mpi.Status[]
method static mpi.Prequest#Waitall(mpi.Request[]) mpi.Status[]
method static mpi.Prequest#Waitany(mpi.Request[]) mpi.Status
method static mpi.Prequest#Waitsome(mpi.Request[]) mpi.Status[]
method static mpi.Request#Testall(mpi.Request[]) mpi.Status[]
method static mpi.Request#Testany(mpi.Request[]) mpi.Status
method static mpi.Request#Testsome(mpi.Request[]) mpi.Status[]
method static mpi.Request#Waitall(mpi.Request[]) mpi.Status[]
method static mpi.Request#Waitany(mpi.Request[]) mpi.Status
method static mpi.Request#Waitsome(mpi.Request[]) mpi.Status[]
